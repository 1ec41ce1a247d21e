import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { after } from "node:test";
import { Judges } from "../../harness/run/judges.js";

export interface CliRun {
  code: number | null;
  output: string;
}

/** Runs lomi-conformance as a user would, keeping its output for the failure message. */
export async function conformance(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const child = spawn(process.execPath, ["bin/lomi-conformance.js", ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, output };
}

/**
 * A `conformance` whose command lines run on long-lived judging processes (harness/run/judges.ts),
 * `size` at a time: each loads the harness once for all the runs it makes, where a process per run
 * paid that start each time. Exit codes, output and reports are the command's, run from the kit's
 * folder in the test's environment; a test of what only a process of its own shows (its environment,
 * its folder, a signal) starts one with `conformance`. The processes end after the tests of the
 * suite (or file) that made them.
 */
export function judgedRuns(size = 1): (args: string[]) => Promise<CliRun> {
  const judges = new Judges(size);
  after(() => judges.close());
  return async (args) => {
    const { code, output } = await judges.run(args);
    return { code, output };
  };
}

/**
 * Starts a broker command over Streamable HTTP (`--transport http --port 0` appended) against the
 * native port, as a team starts its broker for --broker-url, and stops it when `work` is done.
 */
export async function withHttpBroker<T>(command: string[], nativePort: number, dir: string, work: (url: string) => Promise<T>): Promise<T> {
  const child = spawn(process.execPath, [...command, "--transport", "http", "--port", "0"], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, LOMI_NATIVE_URL: `http://127.0.0.1:${nativePort}`, LOMI_STORE_PATH: path.join(dir, "receipts.sqlite"), LOMI_SEED: "1" },
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let seen = "";
      child.stderr.on("data", (c: Buffer) => {
        seen += c.toString();
        const found = /listening on (http:\/\/\S+)/.exec(seen);
        if (found) resolve(found[1]!);
      });
      child.once("exit", (code) => reject(new Error(`${command.join(" ")} exited ${code}: ${seen}`)));
    });
    return await work(url);
  } finally {
    child.kill("SIGKILL");
    if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
  }
}
