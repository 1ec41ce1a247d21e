import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { kitPath } from "../../protocol/kit-root.js";

/** A command line to run: what follows `lomi-conformance`. */
export interface JudgeJob {
  args: string[];
}

/** How it ended: the exit code the command would have had. */
export interface JudgeJobDone {
  code: number;
}

/** How much of a run's output is kept for its caller (a failure message, or the reason a run did not finish, quotes its end). */
const OUTPUT_KEPT = 20_000;

/**
 * Written at the end of a run's output on stdout and on stderr: a run's answer comes over IPC, which
 * may overtake what its pipes still carry, so the answer is given once both marks have arrived.
 */
export const END_OF_RUN = "\u0000lomi-judge-run-ended\u0000";

interface Judge {
  child: ChildProcess;
  /** What the process wrote during the run it is making, or since its last. */
  output: string;
  /** The run it is making, answered when it answers or dies. */
  pending: ((done: JudgeJobDone & { output: string }) => void) | undefined;
  /** The run's answer, and how many of its pipes have ended its output (END_OF_RUN): both are needed to answer. */
  done: JudgeJobDone | undefined;
  ended: number;
}

/**
 * Long-lived judging processes, at most `size` of them: each loads the harness once (about 1.3 s of
 * CPU, and as much again before its code runs at full speed) and runs the lomi-conformance command
 * lines it is given one after another, in-process (harness/commands/judge-process.ts), where a process
 * per run paid that start each time. teeth judges its mutants on them; tests that make many in-process runs
 * can too. Each runs the build when it is fresh, as the bins do (bin/judge-process.js). A process
 * that dies takes only its run with it (exit 2, with the end of its output); the next run starts a
 * new one.
 */
export class Judges {
  private readonly idle: Judge[] = [];
  private readonly all = new Set<Judge>();
  private readonly waiting: Array<(judge: Judge) => void> = [];

  constructor(private readonly size: number) {}

  /** Runs `args` (lomi-conformance's command line) on an idle process, and answers its exit code with what it wrote. */
  async run(args: readonly string[]): Promise<JudgeJobDone & { output: string }> {
    const judge = await this.take();
    try {
      return await new Promise((resolve) => {
        judge.output = "";
        judge.done = undefined;
        judge.ended = 0;
        judge.pending = resolve;
        judge.child.send({ args: [...args] } satisfies JudgeJob);
      });
    } finally {
      this.give(judge);
    }
  }

  /** Ends every judging process, and answers once they have all exited. */
  async close(): Promise<void> {
    const judges = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    await Promise.all(
      judges.map((judge) => {
        const exited = judge.child.exitCode !== null || judge.child.signalCode !== null ? Promise.resolve() : once(judge.child, "exit");
        if (judge.child.connected) judge.child.disconnect();
        return exited;
      }),
    );
  }

  private take(): Promise<Judge> {
    const ready = this.idle.pop();
    if (ready) return Promise.resolve(ready);
    if (this.all.size < this.size) return Promise.resolve(this.start());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** A process done with its run goes to the next caller waiting, or back to the idle ones; a dead one is replaced when one is needed. */
  private give(judge: Judge): void {
    if (!this.all.has(judge)) {
      const next = this.waiting.shift();
      if (next) next(this.start());
      return;
    }
    const next = this.waiting.shift();
    if (next) next(judge);
    else this.idle.push(judge);
  }

  private start(): Judge {
    const child = fork(kitPath("bin/judge-process.js"), [], { cwd: kitPath("."), execArgv: [], stdio: ["ignore", "pipe", "pipe", "ipc"] });
    const judge: Judge = { child, output: "", pending: undefined, done: undefined, ended: 0 };
    const answerWhenWhole = () => {
      if (judge.done === undefined || judge.ended < 2) return;
      const answer = judge.pending;
      judge.pending = undefined;
      answer?.({ ...judge.done, output: judge.output });
    };
    // Each pipe's data is its own string: a mark never straddles two pipes (it may straddle two chunks of one).
    const keep = (pipe: { text: string }) => (d: Buffer) => {
      pipe.text += d.toString();
      const parts = pipe.text.split(END_OF_RUN);
      judge.ended += parts.length - 1;
      pipe.text = parts.pop()!;
      judge.output = (judge.output + parts.join("")).slice(-OUTPUT_KEPT);
      answerWhenWhole();
    };
    const [stdout, stderr] = [{ text: "" }, { text: "" }];
    child.stdout!.on("data", keep(stdout));
    child.stderr!.on("data", keep(stderr));
    child.on("message", (done: JudgeJobDone) => {
      judge.done = done;
      answerWhenWhole();
    });
    const ended = (how: string) => {
      this.all.delete(judge);
      if (this.idle.includes(judge)) this.idle.splice(this.idle.indexOf(judge), 1);
      const answer = judge.pending;
      judge.pending = undefined;
      answer?.({ code: 2, output: `${judge.output}${stdout.text}${stderr.text}\nlomi-conformance: its judging process ${how} before the run ended\n` });
    };
    child.on("exit", (code, signal) => ended(`ended (${signal ?? `exit ${code}`})`));
    child.on("error", (error) => ended(`failed (${error.message})`));
    this.all.add(judge);
    return judge;
  }
}
