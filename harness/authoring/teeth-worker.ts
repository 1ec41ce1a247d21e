import { harnessFault, HarnessError } from "../harness-error.js";
import { conformance } from "../commands/run.js";
import { parse, UsageError } from "../commands/options.js";
import { messageOf } from "../../protocol/errors.js";
import { kitPath } from "../../protocol/kit-root.js";

// One of teeth's judging processes (harness/authoring/teeth-judges.ts): it loads the harness once and
// runs the conformance runs it is sent one after another, in this process, as `lomi-conformance ARGS`
// would in a process of its own. Every scenario of every run still gets a fresh broker and store.

/** A run to make: the command line after `lomi-conformance`. */
export interface TeethJob {
  args: string[];
}

/** How it ended: the exit code the command would have had, and, for exit 2, why (what its stderr would end with). */
export interface TeethJobDone {
  code: number;
  error?: string;
}

if (!process.send) throw harnessFault("teeth-worker runs only as a process teeth starts (it answers over IPC)");
const send = process.send.bind(process);

/** The command's own answer to an error, as harness/cli.ts words it. */
function errorText(error: unknown): string {
  const plain = error instanceof UsageError || (error instanceof HarnessError && error.kind === "config");
  return plain ? messageOf(error) : error instanceof Error ? (error.stack ?? error.message) : String(error);
}

async function judge(job: TeethJob): Promise<TeethJobDone> {
  // The run reads its command line as a process of its own would (the options, and the command its reports record).
  process.argv = [process.execPath, kitPath("bin/lomi-conformance.js"), ...job.args];
  try {
    return { code: await conformance(parse()) };
  } catch (error) {
    return { code: 2, error: errorText(error) };
  }
}

// One run at a time: teeth sends the next when this one has answered.
process.on("message", (job: TeethJob) => {
  void judge(job).then((done) => send(done));
});
// teeth gone (it ended, or was stopped): nothing is left to answer.
process.on("disconnect", () => process.exit(0));
