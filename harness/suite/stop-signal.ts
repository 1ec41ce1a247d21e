/** The signals that stop a run: Ctrl+C, and a CI runner's timeout. */
export type StopSignal = "SIGINT" | "SIGTERM";

/** What a run does when stopped, before the process exits: write what it has. */
type StopHandler = (signal: StopSignal) => void | Promise<void>;

/** How long a stopped run may take to write its reports before the process exits anyway: a CI runner kills soon after its SIGTERM. */
const WRITE_BUDGET_MS = 10_000;

let handler: StopHandler | undefined;

/**
 * While a run is under way, a stop signal first lets it write its reports; `stop` answers the function
 * that removes the handler once the run is over (a stop then only exits).
 */
export function onStop(stop: StopHandler): () => void {
  handler = stop;
  return () => {
    if (handler === stop) handler = undefined;
  };
}

/**
 * Installs the process's answer to SIGINT and SIGTERM: the run's handler writes what finished, then the
 * process exits with `code`, so the exit hooks kill every broker process group. A second signal exits at
 * once, as does a handler that throws or takes longer than WRITE_BUDGET_MS: a stop is never ignored.
 */
export function exitOnStopSignals(code: number, warn: (text: string) => void): void {
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(code);
      stopping = true;
      const written = Promise.resolve()
        .then(() => handler?.(signal))
        .catch((error: unknown) => warn(`could not write the reports of the stopped run: ${(error as Error).message}`));
      const late = new Promise<void>((resolve) =>
        setTimeout(() => (warn(`the reports took over ${WRITE_BUDGET_MS / 1000} s to write; exiting`), resolve()), WRITE_BUDGET_MS).unref(),
      );
      void Promise.race([written, late]).then(() => process.exit(code));
    });
  }
}
