import { runCommandLine } from "./commands/command-line.js";
import { exitOnStopSignals } from "./suite/stop-signal.js";

// Ctrl+C or a CI runner's SIGTERM: a run under way writes its reports with what finished, then the
// process exits, so the exit hooks kill every broker process group.
exitOnStopSignals(2, (text) => process.stderr.write(`lomi-conformance: ${text}\n`));

runCommandLine(process.argv.slice(2)).then((code) => process.exit(code));
