import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, test } from "node:test";
import { systemClock } from "../../protocol/ports.js";
import { Broker } from "../../reference-broker/broker.js";
import { SimulatorHost } from "../../simulator/host.js";
import { IN_PROCESS_ORIGIN, inProcessFetch, routeInProcess, stopRouting } from "../../simulator/in-process-route.js";
import { readWorldFile } from "../../simulator/world-file.js";

after(stopRouting);

test("a broker closed with background settlements pending never touches its closed store", async () => {
  const host = new SimulatorHost({ ...readWorldFile(), autoApprovePairings: true }, 1);
  routeInProcess(host);
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);
  process.on("uncaughtException", record);
  try {
    const broker = await Broker.start({
      nativeUrl: IN_PROCESS_ORIGIN,
      storePath: path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-settle-")), "receipts.sqlite"),
      seed: 1,
      hostClock: systemClock,
      fetch: inProcessFetch,
      parts: { policy: { settleAfterMs: [20, 40] } },
    });
    const session = broker.newSession(() => "agent");
    const connected = (await session.call("lomi_connect", { workspaceId: "ws-alpha" })).structuredContent as { data: Record<string, string> };
    const { data } = connected;
    const reply = await session.call("lomi_terminal_create", { workspaceId: "ws-alpha", cwdRelative: "", title: "T", expectedRevision: data.domainRevision, retryEpoch: data.retryEpoch, requestKey: "k1" });
    assert.equal((reply.structuredContent as { status: string }).status, "ok", JSON.stringify(reply.structuredContent));
    broker.close();
    await sleep(120); // past the longest settlement delay: a timer left behind would fire now
    assert.deepEqual(uncaught, []);
  } finally {
    process.off("uncaughtException", record);
  }
});
