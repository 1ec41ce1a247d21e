import type { JudgedSides } from "../check/check.js";
import { choice, command, flag, text } from "./declaration.js";

/** `lomi-conformance check HISTORY.jsonl`: the oracles alone, on a recorded history. */
export const CHECK = command({
  name: "check",
  summary: "the oracles alone, on a recorded history",
  operands: { count: 1, shown: "HISTORY.jsonl", what: "one history file" },
  description:
    "The checker alone, on a history a run, an explore campaign or lomi-conformance record wrote\n" +
    "(docs/explore.md): what it judged and what it could not, and why. Each agent of recorded traffic\n" +
    "is judged by the agent rules too (docs/agents.md).",
  options: {
    report: text({ value: "FILE.md|FILE.html", help: "write the history with the violating records marked" }),
    scenario: flag({ help: "print a Gherkin skeleton of each violating exchange, to make a scenario of" }),
    judge: choice({
      choices: ["broker", "agents", "both"] satisfies [JudgedSides, ...JudgedSides[]],
      help: "which sides are judged (default: the broker, and the agents of traffic recorded outside the kit: the kit's own agents break agent rules on purpose)",
    }),
  },
  examples: [
    {
      line: "lomi-conformance check traffic.jsonl --report traffic.md --scenario",
      says: "recorded traffic judged, the violations marked and turned into scenario skeletons",
    },
    { line: "lomi-conformance check agent.jsonl --judge agents", says: "an agent's conduct alone" },
  ],
  notes: "Exit codes: 0 no violation, 1 a violation (the broker's or a judged agent's), 2 a malformed file or a check that failed.",
  async run({ values, operands: [file] }) {
    const { checkCommand } = await import("../check/check.js");
    return checkCommand(file!, (t) => process.stdout.write(t), { report: values.report, scenario: values.scenario, judge: values.judge });
  },
});
