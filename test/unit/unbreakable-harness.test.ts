import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { HarnessError } from "../../harness/harness-error.js";
import { McpConnection, type Exchange } from "../../harness/connection/mcp-connection.js";
import { contractData } from "../../harness/contract-checks/reply-checks.js";
import { BLAME_MEDIA_TYPE } from "../../harness/report/attachments.js";
import { FAILURE_CONTEXT_FILE, failureContextOf } from "../../harness/report/failure-context.js";
import { judgeMadeUpRun } from "../support/judge.js";
import { scenarioResults } from "../../harness/report/scenario-results.js";
import { readMessages } from "../../harness/report/message-stream.js";
import { REPORT_FILES, writeReports } from "../../harness/report/write-reports.js";
import { profileOf } from "../../harness/run/profiles.js";
import { loadRules } from "../../harness/rules.js";
import { scenarioCatalogue } from "../../harness/run/feature-catalogue.js";
import { CATALOGUE, type ToolName } from "../../protocol/catalogue.js";
import { messagesOf } from "../support/cucumber-messages.js";

/**
 * "Whatever a broker answers, the run ends with rule verdicts and every report." A fake broker
 * answers tools/call with generated JSON-RPC messages; each goes through the harness's call path as
 * a step takes it, then through the failure context the After hook attaches, the reading of
 * cucumber's messages and the writing of every report.
 */

type Behaviour = { kind: "result"; result: unknown } | { kind: "error"; error: unknown } | { kind: "wrong-id"; result: unknown } | { kind: "silence" };

const nested = (depth: number, leaf: unknown = 1): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { k: v };
  return v;
};
const loneSurrogates = fc.string().map((s) => `${s}\uD800${s}\uDFFF`);
const huge = fc.integer({ min: 100_000, max: 200_000 }).map((n) => "é".repeat(n));
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Printed by its depth when a case fails: fast-check's own printer would overflow on it. */
const deep = fc.integer({ min: 2_000, max: 20_000 }).map((n) => Object.defineProperty(nested(n) as object, fc.toStringMethod, { value: () => `nested(${n})` }));
/** Any JSON a broker could put on the wire, with the shapes that broke reports before. */
const wild: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: loneSurrogates },
  { weight: 1, arbitrary: huge },
  { weight: 1, arbitrary: deep },
);
const envelopeLike = fc.record(
  {
    controlApiVersion: fc.oneof(fc.constant("1.0"), wild),
    status: fc.constantFrom("ok", "error", "maybe"),
    data: wild,
    code: fc.oneof(fc.constantFrom("NOT_FOUND", "INVALID_ARGUMENT", "NOPE"), wild),
    message: fc.oneof(fc.string(), wild),
  },
  { requiredKeys: ["controlApiVersion", "status"] },
);
/** A text block mirroring the value, as a broker that serialised it would send (a value too deep to serialise has none). */
const text = (v: unknown) => {
  let mirror: string;
  try {
    mirror = JSON.stringify(v) ?? "";
  } catch {
    mirror = "";
  }
  return fc.constant([{ type: "text", text: mirror }]);
};
const result: fc.Arbitrary<unknown> = fc.oneof(
  wild,
  fc.record({ content: fc.oneof(wild, fc.array(wild)), structuredContent: wild, isError: wild }, { requiredKeys: [] }),
  envelopeLike.chain((sc) => fc.record({ content: fc.oneof(text(sc), wild), structuredContent: fc.constant(sc), isError: fc.oneof(fc.boolean(), wild) })),
);
const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
  { weight: 12, arbitrary: result.map((r) => ({ kind: "result" as const, result: r })) },
  {
    weight: 4,
    arbitrary: fc
      .oneof(fc.record({ code: fc.constantFrom(-32602, -32603, -32601), message: fc.string() }), wild)
      .map((e) => ({ kind: "error" as const, error: e })),
  },
  { weight: 1, arbitrary: result.map((r) => ({ kind: "wrong-id" as const, result: r })) },
  { weight: 1, arbitrary: fc.constant({ kind: "silence" as const }) },
);
/** What a scenario sends: SCH-06 sends arrays, strings and null as arguments. */
const args = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), fc.array(fc.jsonValue({ maxDepth: 2 })), fc.constant(null), fc.string());
const tool = fc.constantFrom(...CATALOGUE.map((c) => c.name), "lomi_no_such_tool");

/** A broker that answers initialize properly, then answers tools/call as told. */
async function fakeBroker(answer: Behaviour): Promise<InMemoryTransport> {
  const [client, server] = InMemoryTransport.createLinkedPair();
  server.onmessage = (m: JSONRPCMessage) => {
    if (!("id" in m) || !("method" in m)) return;
    const reply = (body: Record<string, unknown>) => void server.send({ jsonrpc: "2.0", id: m.id, ...body } as JSONRPCMessage);
    if (m.method === "initialize")
      return reply({ result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "fake", version: "0" } } });
    if (answer.kind === "result") reply({ result: answer.result });
    else if (answer.kind === "error") reply({ error: answer.error });
    else if (answer.kind === "wrong-id") void server.send({ jsonrpc: "2.0", id: 10_000, result: answer.result } as JSONRPCMessage);
  };
  await server.start();
  return client;
}

/** A step's call: a reply, or a violation the broker is blamed for; anything else thrown is the harness breaking. */
async function stepCall(
  transport: InMemoryTransport,
  name: string,
  sent: unknown,
): Promise<{ message: string | undefined; rules: readonly string[]; exchanges: Exchange[] }> {
  const exchanges: Exchange[] = [];
  const connection = await McpConnection.open(transport, "agent", 15);
  connection.onExchange = (e) => exchanges.push(e);
  try {
    const reply = await connection.call(name, sent as Record<string, unknown>);
    if (reply.envelope.status === "ok" && CATALOGUE.some((c) => c.name === name)) contractData(name as ToolName, reply.envelope.data);
    return { message: undefined, rules: [], exchanges };
  } catch (error) {
    assert.ok(
      error instanceof HarnessError && error.kind === "violation",
      `the harness threw ${error instanceof Error ? `${error.name}: ${error.message.slice(0, 300)}` : String(error)}`,
    );
    return { message: error.message, rules: error.rules, exchanges };
  } finally {
    await connection.close();
  }
}

/** Well-formed enough for a JUnit parser: no lone surrogate, no control character, every element closed. */
function assertWellFormedXml(xml: string): void {
  assert.doesNotMatch(xml, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  assert.doesNotMatch(xml, LONE_SURROGATE, "junit.xml holds a lone surrogate");
  const open: string[] = [];
  for (const m of xml.replace(/<\?xml[^>]*\?>/, "").matchAll(/<(\/?)([A-Za-z]+)[^>]*?(\/?)>/g)) {
    if (m[3] === "/") continue;
    if (m[1] === "/") assert.equal(open.pop(), m[2], "junit.xml closes an element it did not open");
    else open.push(m[2]!);
  }
  assert.deepEqual(open, [], "junit.xml leaves elements open");
}

const rules = loadRules().rules;
const SUITE = scenarioCatalogue();

/** The report pipeline on one made-up run: every report is written and says the scenario failed. */
function reportsOf(dir: string, scenario: Parameters<typeof messagesOf>[0][number]) {
  const messages = path.join(dir, "messages.ndjson");
  writeFileSync(messages, messagesOf([scenario]));
  const results = scenarioResults(readMessages(messages));
  assert.equal(results.length, 1, "the scenario kept its verdict");
  const { run, baselinedScenarioReason } = judgeMadeUpRun({
    rules,
    results,
    suite: SUITE,
    // As a --tags run of the scenario's rules: the others are not selected, never "none finished".
    tags: scenario.tags.join(" or "),
    profile: profileOf({ adapter: "in-process", seed: 1, timeoutMs: 40 }),
    broker: { adapter: "fake", serverInfo: undefined },
  });
  assert.deepEqual(writeReports(dir, run, results, baselinedScenarioReason), [], "every report was made");
  for (const f of REPORT_FILES.filter((x) => x !== "cucumber.html")) assert.ok(existsSync(path.join(dir, f)), f);
  assertWellFormedXml(readFileSync(path.join(dir, "junit.xml"), "utf8"));
  return JSON.parse(readFileSync(path.join(dir, "conformance.json"), "utf8")) as {
    verdict: string;
    scenarios: { total: number; fail: number };
    rules: Array<{ id: string; verdict: string }>;
  };
}

test("whatever a broker answers and whatever a scenario sent, the call is the broker's verdict and every report is written (fast-check, 500 behaviours)", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-unbreakable-"));
  try {
    await fc.assert(
      fc.asyncProperty(behaviour, tool, args, fc.array(wild, { maxLength: 3 }), async (answer, name, sent, ledger) => {
        const { message, rules: named, exchanges } = await stepCall(await fakeBroker(answer), name, sent);
        const context = failureContextOf(exchanges, ledger, "broker log \uD800");
        const report = reportsOf(dir, {
          name: "A made-up scenario",
          tags: ["@SCH-06"],
          status: "FAILED",
          message: message ?? "a later step failed",
          attachments: [
            { body: JSON.stringify(context, null, 2), mediaType: "application/json", fileName: FAILURE_CONTEXT_FILE },
            // As the steps' wrapper attaches it: the rules the violation names.
            ...(named.length > 0 ? [{ body: JSON.stringify({ rules: named }), mediaType: BLAME_MEDIA_TYPE }] : []),
          ],
        });
        assert.equal(report.scenarios.total, 1);
        assert.equal(report.scenarios.fail, 1);
        // The failure counts against the rules its violation names (the envelope checks), or, naming none, the rule the scenario cites.
        const failed = report.rules.filter((r) => r.verdict === "fail").map((r) => r.id);
        assert.deepEqual(failed, named.length > 0 ? [...named] : ["SCH-06"], `failed: ${failed.join(", ")}`);
      }),
      { numRuns: 500, seed: 20261204, endOnFailure: true, includeErrorInReport: true },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the issue's case: arguments sent as an array, answered with a JSON-RPC invalid-params error, fail SCH-06 and explain themselves", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-unbreakable-"));
  try {
    const { message, exchanges } = await stepCall(
      await fakeBroker({ kind: "error", error: { code: -32602, message: "Invalid params" } }),
      "lomi_terminal_create",
      ["ws-alpha"],
    );
    assert.match(message ?? "", /did not answer with a tool result/);
    const report = reportsOf(dir, {
      name: "Arguments that are not an object",
      tags: ["@SCH-06"],
      status: "FAILED",
      message,
      attachments: [{ body: JSON.stringify(failureContextOf(exchanges, [], "")), mediaType: "application/json", fileName: FAILURE_CONTEXT_FILE }],
    });
    assert.equal(report.rules.find((r) => r.id === "SCH-06")?.verdict, "fail");
    const md = readFileSync(path.join(dir, "conformance.md"), "utf8");
    assert.match(md, /1\. agent → `lomi_terminal_create`\n```json\n\["ws-alpha"\]\n```/, "the request is shown as it was sent");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a failure context nobody can read loses the explanation only, and says so", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-unbreakable-"));
  try {
    reportsOf(dir, {
      name: "Broken attachment",
      tags: ["@SCH-06"],
      status: "FAILED",
      message: "x",
      attachments: [{ body: "{not json", mediaType: "application/json", fileName: FAILURE_CONTEXT_FILE }],
    });
    assert.match(readFileSync(path.join(dir, "conformance.md"), "utf8"), /Not shown: the explanation of this failure could not be built/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a broker silent at initialize fails the step with no rule judged; one that refuses initialize is a violation", async () => {
  const opened = async (answer: (id: JSONRPCMessage & { id: string | number }) => JSONRPCMessage | undefined) => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    server.onmessage = (m: JSONRPCMessage) => {
      const reply = "id" in m && "method" in m ? answer(m) : undefined;
      if (reply) void server.send(reply);
    };
    await server.start();
    return McpConnection.open(client, "agent", 30).then(
      () => assert.fail("initialize cannot succeed"),
      (error: unknown) => error,
    );
  };
  const silent = await opened(() => undefined);
  assert.ok(silent instanceof HarnessError && silent.kind === "violation" && silent.unjudged === "no-answer", "no answer in time judges no rule");
  const refused = await opened((m) => ({ jsonrpc: "2.0", id: m.id, error: { code: -32603, message: "no" } }));
  assert.ok(refused instanceof HarnessError && refused.kind === "violation" && refused.unjudged === undefined, "an answer that refuses is judged");
});
