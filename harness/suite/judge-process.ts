import { harnessFault } from "../harness-error.js";
import { runCommandLine } from "../commands/command-line.js";
import { kitPath } from "../../protocol/kit-root.js";

// One judging process (harness/suite/judges.ts): it loads the harness once and runs the command lines
// it is sent one after another, in this process, as `lomi-conformance ARGS` would in a process of its
// own (a conformance run, or a command: merge, compare, explore…). Every scenario of every run still
// gets a fresh broker and store.

/** A command line to run: what follows `lomi-conformance`. */
export interface JudgeJob {
  args: string[];
}

/** How it ended: the exit code the command would have had. */
export interface JudgeJobDone {
  code: number;
}

if (!process.send) throw harnessFault("judge-process runs only as a process that harness/suite/judges.ts starts (it answers over IPC)");
const send = process.send.bind(process);

async function judge(job: JudgeJob): Promise<JudgeJobDone> {
  // The command reads its command line as a process of its own would (the options, and the command its reports record).
  process.argv = [process.execPath, kitPath("bin/lomi-conformance.js"), ...job.args];
  return { code: await runCommandLine(job.args) };
}

/** Resolves once what the run wrote has left this process: its answer comes after its output. */
const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write("", () => resolve()));

// One run at a time: the next is sent when this one has answered.
process.on("message", (job: JudgeJob) => {
  void judge(job).then(async (done) => {
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    send(done);
  });
});
// The process that started it is gone (it ended, or was stopped): nothing is left to answer.
process.on("disconnect", () => process.exit(0));
