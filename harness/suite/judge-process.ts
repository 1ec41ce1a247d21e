import { harnessFault, HarnessError } from "../harness-error.js";
import { conformance } from "../commands/run.js";
import { parse, UsageError } from "../commands/options.js";
import { messageOf } from "../../protocol/errors.js";
import { kitPath } from "../../protocol/kit-root.js";

// One judging process (harness/suite/judges.ts): it loads the harness once and makes the conformance
// runs it is sent one after another, in this process, as `lomi-conformance ARGS` would in a process
// of its own. Every scenario of every run still gets a fresh broker and store.

/** A run to make: the command line after `lomi-conformance`. */
export interface JudgeJob {
  args: string[];
}

/** How it ended: the exit code the command would have had, and, for exit 2, why (what its stderr would end with). */
export interface JudgeJobDone {
  code: number;
  error?: string;
}

if (!process.send) throw harnessFault("judge-process runs only as a process that harness/suite/judges.ts starts (it answers over IPC)");
const send = process.send.bind(process);

/** The command's own answer to an error, as harness/cli.ts words it. */
function errorText(error: unknown): string {
  const plain = error instanceof UsageError || (error instanceof HarnessError && error.kind === "config");
  return plain ? messageOf(error) : error instanceof Error ? (error.stack ?? error.message) : String(error);
}

async function judge(job: JudgeJob): Promise<JudgeJobDone> {
  // The run reads its command line as a process of its own would (the options, and the command its reports record).
  process.argv = [process.execPath, kitPath("bin/lomi-conformance.js"), ...job.args];
  try {
    return { code: await conformance(parse()) };
  } catch (error) {
    return { code: 2, error: errorText(error) };
  }
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
