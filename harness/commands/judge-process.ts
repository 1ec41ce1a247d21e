import { harnessFault } from "../harness-error.js";
import { runCommandLine } from "./command-line.js";
import { END_OF_RUN, type JudgeJob, type JudgeJobDone } from "../run/judges.js";
import { kitPath } from "../../protocol/kit-root.js";

// One judging process (harness/run/judges.ts): it loads the harness once and runs the command lines
// it is sent one after another, in this process, as `lomi-conformance ARGS` would in a process of its
// own (a conformance run, or a command: merge, compare, explore…). Every scenario of every run still
// gets a fresh broker and store.

if (!process.send) throw harnessFault("judge-process runs only as a process that harness/run/judges.ts starts (it answers over IPC)");
const send = process.send.bind(process);

async function judge(job: JudgeJob): Promise<JudgeJobDone> {
  // The command reads its command line as a process of its own would (the options, and the command its reports record).
  process.argv = [process.execPath, kitPath("bin/lomi-conformance.js"), ...job.args];
  return { code: await runCommandLine(job.args) };
}

// One run at a time: the next is sent when this one has answered.
process.on("message", (job: JudgeJob) => {
  void judge(job).then((done) => {
    process.stdout.write(END_OF_RUN);
    process.stderr.write(END_OF_RUN);
    send(done);
  });
});
// The process that started it is gone (it ended, or was stopped): nothing is left to answer.
process.on("disconnect", () => process.exit(0));
