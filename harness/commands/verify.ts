import path from "node:path";
import { command } from "./declaration.js";
import { shown } from "./options.js";

/** `lomi-conformance verify DIR`: a run's verdicts judged again from the evidence its reports keep. */
export const VERIFY = command({
  name: "verify",
  summary: "every verdict of a run's reports judged again from its evidence",
  operands: { count: 1, shown: "DIR", what: "one reports folder" },
  description:
    "A run records its evidence (message streams and histories by sha256, what it was judged with) with\n" +
    "one digest in conformance.json and the badge. verify judges every verdict again from that evidence\n" +
    "by the run's own functions, re-judges each history with the oracles, and names each file, field or\n" +
    "report that disagrees.",
  options: {},
  examples: [{ line: "lomi-conformance verify reports", says: "the reports a CI job published, checked before they are trusted" }],
  notes: "Exit codes: 0 verified, 1 a disagreement (each named), 2 not a run's reports, or another kit's.",
  async run({ operands: [dir] }) {
    return (await import("../verify/command.js")).verifyCommand(path.resolve(dir!), shown(dir!), (t) => process.stdout.write(t));
  },
});
