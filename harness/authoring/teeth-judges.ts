import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { kitPath } from "../../protocol/kit-root.js";
import type { TeethJob, TeethJobDone } from "./teeth-worker.js";

/** How much of a judging process's stderr is kept to say why it died. */
const STDERR_KEPT = 2000;

interface Judge {
  child: ChildProcess;
  stderr: string;
  /** The run it is making, answered when it answers or dies. */
  pending: ((done: TeethJobDone) => void) | undefined;
}

/**
 * teeth's judging processes, one per lane: each loads the harness once (about 1.3 s of CPU) and makes
 * the runs of its lane one after another (harness/authoring/teeth-worker.ts), instead of a process
 * per mutant. Compiled, the worker is the .js beside this file; run from the sources, it loads tsx.
 * A process that dies takes only its run with it (exit 2, with its stderr); the lane's next run
 * starts a new one.
 */
export class TeethJudges {
  private readonly judges = new Map<number, Judge>();

  /** Makes the run `args` (lomi-conformance's command line) on the lane's process. */
  run(lane: number, args: readonly string[]): Promise<TeethJobDone> {
    const judge = this.judges.get(lane) ?? this.start(lane);
    return new Promise((resolve) => {
      judge.pending = resolve;
      judge.child.send({ args: [...args] } satisfies TeethJob);
    });
  }

  /** Ends every judging process, and answers once they have all exited. */
  async close(): Promise<void> {
    const judges = [...this.judges.values()];
    this.judges.clear();
    await Promise.all(
      judges.map((judge) => {
        const exited = judge.child.exitCode !== null || judge.child.signalCode !== null ? Promise.resolve() : once(judge.child, "exit");
        if (judge.child.connected) judge.child.disconnect();
        return exited;
      }),
    );
  }

  private start(lane: number): Judge {
    const here = fileURLToPath(import.meta.url);
    const entry = fileURLToPath(new URL(`./teeth-worker${path.extname(here)}`, import.meta.url));
    const child = fork(entry, [], { cwd: kitPath("."), execArgv: here.endsWith(".js") ? [] : ["--import", "tsx"], stdio: ["ignore", "ignore", "pipe", "ipc"] });
    const judge: Judge = { child, stderr: "", pending: undefined };
    child.stderr!.on("data", (d: Buffer) => (judge.stderr = (judge.stderr + d.toString()).slice(-STDERR_KEPT)));
    child.on("message", (done: TeethJobDone) => {
      const answer = judge.pending;
      judge.pending = undefined;
      answer?.(done);
    });
    const ended = (how: string) => {
      if (this.judges.get(lane) === judge) this.judges.delete(lane);
      const answer = judge.pending;
      judge.pending = undefined;
      answer?.({ code: 2, error: `its judging process ${how} before the run ended: ${judge.stderr.trim().split("\n").slice(-3).join(" ")}` });
    };
    child.on("exit", (code, signal) => ended(`ended (${signal ?? `exit ${code}`})`));
    child.on("error", (error) => ended(`failed (${error.message})`));
    this.judges.set(lane, judge);
    return judge;
  }
}
