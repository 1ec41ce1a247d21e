import assert from "node:assert/strict";
import { test } from "node:test";
import { HarnessError } from "../../harness/harness-error.js";
import { parseRecordArgs } from "../support/record-args.js";
import { FaultPlan, parseFaultSpec } from "../../harness/record/fault-plan.js";

const refused = (spec: string, problem: RegExp) =>
  assert.throws(
    () => parseFaultSpec(spec),
    (e: unknown) => e instanceof HarnessError && e.kind === "config" && problem.test(e.message) && e.message.includes("KIND:SUBJECT[#N|@P%]"),
    spec,
  );

test("a spec names each fault, what it picks and how; the first item to pick a call decides its fault", () => {
  const plan = new FaultPlan(parseFaultSpec("lose-reply:lomi_terminal_run, restart:lomi_terminal_run#3,lose-reply:op#2"), 1);
  const picks = ["lomi_terminal_run", "lomi_operation_get", "lomi_terminal_run", "lomi_terminal_run", "lomi_file_write"].map((t) => plan.next(t)?.item ?? "-");
  // op counts operation calls only: the second one is the second terminal_run.
  assert.deepEqual(picks, ["lose-reply:lomi_terminal_run", "-", "lose-reply:op#2", "restart:lomi_terminal_run#3", "-"]);
});

test("@P% draws from the seed: the same seed picks the same calls, another seed others", () => {
  const picks = (seed: number) => {
    const plan = new FaultPlan(parseFaultSpec("lose-reply:op@30%"), seed);
    return Array.from({ length: 40 }, (_, i) => (plan.next(i % 2 ? "lomi_terminal_run" : "lomi_workspace_list") ? i : -1)).filter((i) => i >= 0);
  };
  assert.deepEqual(picks(7), picks(7));
  assert.notDeepEqual(picks(7), picks(8));
  assert.ok(
    picks(7).every((i) => i % 2 === 1),
    "op picks operation calls only",
  );
  assert.ok(picks(7).length > 0 && picks(7).length < 20);
});

test("a bad spec is refused with a configuration error naming the item and why", () => {
  refused("", /names no fault/);
  refused("drop:lomi_terminal_run", /names no fault kind \(lose-reply, restart, hold\)/);
  refused("lose-reply:lomi_nothing", /names no tool of the catalogue/);
  refused("hold:lomi_operation_get", /hold takes an operation tool/);
  refused("restart:op#0", /counts calls from #1/);
  refused("lose-reply:op@0%", /above 0% and at most 100%/);
  refused("lose-reply", /is not an item/);
});

test("record --faults goes with the stdio form; --seed and --lomi-control with --faults; hold needs --lomi-control", () => {
  const usage = (args: string[], problem: RegExp) =>
    assert.throws(
      () => parseRecordArgs(args),
      (e: unknown) => e instanceof HarnessError && e.kind === "config" && problem.test(e.message),
      args.join(" "),
    );
  const stdio = parseRecordArgs(["--history", "h.jsonl", "--faults", "restart:lomi_terminal_run", "--seed", "9", "--", "broker"]);
  assert.equal(stdio.form === "stdio" && stdio.faults?.seed, 9);
  assert.equal(stdio.form === "stdio" && stdio.faults?.spec.items[0]!.kind, "restart");
  assert.equal(parseRecordArgs(["--history", "h.jsonl", "--faults", "lose-reply:op", "--", "broker"]).form === "stdio", true);
  usage(["--history", "h.jsonl", "--faults", "lose-reply:op", "--listen", "0", "--to", "http://127.0.0.1:1/mcp"], /--faults needs the stdio form/);
  usage(["--history", "h.jsonl", "--seed", "3", "--", "broker"], /--seed and --lomi-control go with --faults/);
  usage(["--history", "h.jsonl", "--faults", "hold:lomi_terminal_run", "--", "broker"], /name its control API with --lomi-control URL/);
  usage(["--history", "h.jsonl", "--faults", "lose-reply:op", "--seed", "x", "--", "broker"], /--seed takes a whole number/);
  usage(["--history", "h.jsonl", "--faults", "nope", "--", "broker"], /"nope" is not an item/);
});
