import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { systemClock } from "../../protocol/ports.js";
import { VirtualTimers } from "../../protocol/virtual-timers.js";
import { Broker } from "../../reference-broker/broker.js";
import { SimulatorHost } from "../../simulator/host.js";
import { IN_PROCESS_ORIGIN, inProcessFetch, routeInProcess, stopRouting } from "../../simulator/in-process-route.js";
import { readWorldFile } from "../../simulator/world-file.js";

after(stopRouting);

test("a broker closed with background settlements pending never touches its closed store", async () => {
  const host = new SimulatorHost({ ...readWorldFile(), autoApprovePairings: true }, 1);
  routeInProcess(host);
  const timers = new VirtualTimers();
  const broker = await Broker.start({
    nativeUrl: IN_PROCESS_ORIGIN,
    storePath: path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-settle-")), "receipts.sqlite"),
    seed: 1,
    hostClock: systemClock,
    timers,
    fetch: inProcessFetch,
    parts: { policy: { settleAfterMs: [20, 40] } },
  });
  const session = broker.newSession(() => "agent");
  const connected = (await session.call("lomi_connect", { workspaceId: "ws-alpha" })).structuredContent as { data: Record<string, string> };
  const { data } = connected;
  const reply = await session.call("lomi_terminal_create", {
    workspaceId: "ws-alpha",
    cwdRelative: "",
    title: "T",
    expectedRevision: data.domainRevision,
    retryEpoch: data.retryEpoch,
    requestKey: "k1",
  });
  const { status, data: created } = reply.structuredContent as { status: string; data: { operation: { state: string } } };
  assert.equal(status, "ok", JSON.stringify(reply.structuredContent));
  assert.equal(created.operation.state, "running", "Lomi created the terminal at once; its settlement waits in the background");
  broker.close();
  assert.deepEqual(timers.advanceTo(1_000), [], "past the longest settlement delay, no background read starts on the closed store");
});
