import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it, test } from "node:test";
import { MUTANT_AGENTS } from "../../examples/agents/mutant-agents.js";
import { ReferenceAgent } from "../../examples/agents/reference-agent.js";
import { judgeAgents, type AgentJudgement } from "../../harness/agents/judge.js";
import { checkCommand } from "../../harness/check/check.js";
import { markdownReport } from "../../harness/check/check-report.js";
import { formatHistory, type History } from "../../harness/history/format.js";
import { checkHistory } from "../../harness/oracles/index.js";
import { loadRules } from "../../harness/rules.js";
import { ALL_VARIANTS } from "../../variants/index.js";
import { benchSession } from "../support/agent-bench.js";

// The reference agent and its mutants, each a whole session in this process against the reference
// broker through the recorder's fault link: a lost reply, a restart, a lost write in a workspace of two
// projects, a user who denies, and a store of 10 receipts that fills. Sessions run one at a time (the
// simulated Lomi is routed per process).

const FAULTS = "lose-reply:lomi_terminal_run,restart:lomi_terminal_run#3,lose-reply:lomi_file_write";
const STORE = 10;
/** Lomi's clock moves with every call in the bench: no read needs to wait in real time, but under a broker that settles in real time. */
const INSTANT = { pause: async () => undefined };
const waitsFor = (policy: { settleAfterMs?: unknown }) => (policy.settleAfterMs === undefined ? INSTANT : {});

const failing = (j: AgentJudgement) => j.verdicts.filter((v) => v.verdict === "fail").map((v) => v.rule);
const brokerNonPass = (h: History) =>
  checkHistory(h).flatMap((v) =>
    v.verdict === "pass" ? [] : [`${v.id}: ${v.verdict === "fail" ? v.violations.map((x) => x.message).join("; ") : v.verdict}`],
  );
const only = (h: History) => {
  const judged = judgeAgents(h);
  assert.equal(judged.length, 1);
  return judged[0]!;
};

describe("the reference agent keeps every agent rule through lost replies, a restart, an empty page, a denial, outcome_unknown and a full store", () => {
  it("against the reference broker: no violation on either side, and every rule's situation arose", async () => {
    const h = await benchSession({
      clientName: "lomi-reference-agent",
      faults: FAULTS,
      storeReceipts: STORE,
      agent: (client) => new ReferenceAgent(client, INSTANT).run(),
    });
    const j = only(h);
    assert.deepEqual(failing(j), []);
    assert.deepEqual(
      j.verdicts.filter((v) => v.verdict !== "pass").map((v) => v.rule),
      [],
      "the session exercises every rule",
    );
    assert.deepEqual(brokerNonPass(h), []);
    const injected = h.records.flatMap((r) => (r.type === "fault" && r.detail.injectedBy === "record --faults" ? [`${r.kind} ${String(r.detail.item)}`] : []));
    assert.deepEqual(
      injected,
      ["lose-reply lose-reply:lomi_terminal_run", "broker-crash restart:lomi_terminal_run#3", "lose-reply lose-reply:lomi_file_write"],
      "the history says which faults were injected",
    );
  });

  for (const v of ALL_VARIANTS) {
    it(`against the legal variant ${v.name}: no violation on either side`, async () => {
      const h = await benchSession({
        clientName: "lomi-reference-agent",
        faults: FAULTS,
        storeReceipts: STORE,
        policy: v.policy,
        agent: (client) => new ReferenceAgent(client, waitsFor(v.policy)).run(),
      });
      assert.deepEqual(failing(only(h)), []);
      assert.deepEqual(brokerNonPass(h), []);
    });
  }

  it("through a held dispatch: the admission reads running, the recorder releases it after two reads, and the agent reads it until it settles", async () => {
    const h = await benchSession({
      clientName: "lomi-reference-agent",
      faults: "hold:lomi_terminal_create",
      storeReceipts: STORE,
      agent: (client) => new ReferenceAgent(client, INSTANT).run(),
    });
    const faults = h.records.flatMap((r) => (r.type === "fault" ? [r] : []));
    assert.deepEqual(
      faults.map((f) => f.kind),
      ["hold", "release"],
    );
    const held = String(faults[1]!.detail.operationId);
    const reads = h.records.flatMap((r, i) => (r.type === "call" && r.args.operationId === held ? [i] : []));
    assert.ok(reads.length >= 3 && reads.some((i) => i > h.records.indexOf(faults[1]!)), "read before and after the release");
    const j = only(h);
    assert.deepEqual(failing(j), []);
    assert.equal(j.verdicts.find((v) => v.rule === "AGENT-04")!.verdict, "pass");
    assert.deepEqual(brokerNonPass(h), []);
  });
});

describe("each mutant agent fails exactly the agent rules it declares, and the broker none", () => {
  it("every agent rule has a mutant that breaks it", () => {
    assert.deepEqual(
      [...new Set(MUTANT_AGENTS.flatMap((m) => m.breaks))].sort(),
      loadRules().agent!.rules.map((r) => r.id),
    );
    assert.equal(new Set(MUTANT_AGENTS.map((m) => m.name)).size, MUTANT_AGENTS.length);
  });
  for (const m of MUTANT_AGENTS) {
    it(`${m.name}: ${m.defect}`, async () => {
      const h = await benchSession({ clientName: m.name, faults: FAULTS, storeReceipts: STORE, agent: (client) => m.make(client, INSTANT).run() });
      const j = only(h);
      assert.deepEqual(
        failing(j),
        m.breaks,
        JSON.stringify(
          j.verdicts.filter((v) => v.verdict === "fail"),
          null,
          1,
        ),
      );
      assert.deepEqual(brokerNonPass(h), []);
      // Its report marks exactly the records its breaches cite.
      const cited = [...new Set(j.verdicts.flatMap((v) => (v.verdict === "fail" ? v.breaches.flatMap((b) => b.records) : [])))].sort((a, b) => a - b);
      const page = markdownReport("session.jsonl", h, checkHistory(h), [j]);
      assert.deepEqual(
        page
          .split("\n")
          .filter((l) => l.startsWith("| 🟠"))
          .map((l) => Number(/\*\*(\d+)\*\*/.exec(l)?.[1])),
        cited,
      );
    });
  }
});

test("check --report of a mutant's session marks the records its breach cites, and says both sides", async () => {
  const m = MUTANT_AGENTS.find((x) => x.name === "display-name-target")!;
  const h = await benchSession({
    clientName: m.name,
    clientVersion: "2.1",
    faults: FAULTS,
    storeReceipts: STORE,
    agent: (client) => m.make(client, INSTANT).run(),
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-agent-report-"));
  const file = path.join(dir, "session.jsonl");
  writeFileSync(file, formatHistory(h.records));
  let out = "";
  const code = await checkCommand(file, (t) => (out += t), { report: path.join(dir, "report.md"), judge: "both" });
  assert.equal(code, 1, out);
  const breach = judgeAgents(h)[0]!.verdicts.find((v) => v.rule === "AGENT-02")!;
  const cited = breach.verdict === "fail" ? breach.breaches.flatMap((b) => b.records) : [];
  assert.match(out, new RegExp(`broker: no violation; agent display-name-target 2\\.1: AGENT-02 violated at record ${cited.join(", ")}\\n`));
  const marked = readFileSync(path.join(dir, "report.md"), "utf8")
    .split("\n")
    .filter((l) => l.startsWith("| 🟠"));
  assert.deepEqual(
    marked.map((l) => Number(/\*\*(\d+)\*\*/.exec(l)?.[1])),
    cited,
    "exactly the cited records are marked",
  );
  assert.ok(marked.every((l) => l.endsWith("| AGENT-02 (display-name-target 2.1) |")));
  // A history the harness made (it carries Lomi's ledger) has the harness's agents: not judged unless asked.
  let byDefault = "";
  assert.equal(await checkCommand(file, (t) => (byDefault += t)), 0);
  assert.match(byDefault, /agents: not judged \(the history's agents are the kit's own/);
});
