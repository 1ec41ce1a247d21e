import { RECORD } from "../../harness/commands/record.js";
import { parseCommandLine } from "../../harness/commands/parse-command-line.js";
import { recordRequest, type RecordRequest } from "../../harness/record/command.js";

/** record's command line (the words after `record`) read as the CLI reads it: its declaration, then what record makes of it. */
export function parseRecordArgs(argv: readonly string[]): RecordRequest {
  const parsed = parseCommandLine(RECORD, argv, () => []);
  if (parsed === "help") throw new Error("record --help asks for no recording");
  return recordRequest(parsed);
}
