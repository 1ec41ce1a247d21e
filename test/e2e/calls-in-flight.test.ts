import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { TIMEOUT_ARGS } from "../support/budget.js";
import { conformance } from "../support/runs.js";

type Call = { type: string; tool?: string; args?: { operationId?: string }; reply?: { status: string; reason?: string } };

test("a broker that refuses calls in flight together (a JSON-RPC error) is read one call at a time at the scenario's end, every operation answered, and judged conformant", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-in-turn-"));
  const histories = path.join(dir, "histories");
  const { code, output } = await conformance([
    "--broker-cmd",
    "node test/fixtures/brokers/one-call-at-a-time.mjs",
    "--tags",
    "@CANCEL-01",
    "--histories",
    histories,
    ...TIMEOUT_ARGS,
    "--reports",
    path.join(dir, "reports"),
  ]);
  assert.equal(code, 0, output.slice(-3000));
  const refusedThenRead = readdirSync(histories).flatMap((f) => {
    const reads = readFileSync(path.join(histories, f), "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Call)
      .filter((r) => r.type === "call" && r.tool === "lomi_operation_get");
    const refused = reads.filter((r) => r.reply?.status === "lost" && /busy/.test(r.reply.reason ?? ""));
    for (const r of refused) {
      const later = reads.slice(reads.indexOf(r) + 1);
      assert.ok(
        later.some((x) => x.args?.operationId === r.args?.operationId && x.reply?.status === "answered"),
        `${f}: ${r.args?.operationId} refused together, then read alone`,
      );
    }
    return refused;
  });
  assert.ok(refusedThenRead.length > 0, "the end-of-scenario reads went in flight together, and the broker refused some");
});
