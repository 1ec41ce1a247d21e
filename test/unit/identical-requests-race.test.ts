import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { NATIVE_PATHS } from "../../protocol/native-bridge.js";
import { systemClock } from "../../protocol/ports.js";
import { Broker } from "../../reference-broker/broker.js";
import { SimulatorHost } from "../../simulator/host.js";
import { IN_PROCESS_ORIGIN, inProcessFetch, routeInProcess, stopRouting } from "../../simulator/in-process-route.js";
import { readWorldFile } from "../../simulator/world-file.js";

after(stopRouting);

type Sc = { status: string; code?: string; data: Record<string, any> };

test("of two identical requests at once, the one whose native check comes after the other's effect still answers the one operation (IDEM-07)", async () => {
  const host = new SimulatorHost({ ...readWorldFile(), autoApprovePairings: true }, 1);
  routeInProcess(host);
  // The second native check waits until the first request has been answered: its layout has moved by then.
  let checks = 0;
  let open!: () => void;
  const firstAnswered = new Promise<void>((resolve) => (open = resolve));
  const broker = await Broker.start({
    nativeUrl: IN_PROCESS_ORIGIN,
    storePath: path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-race-")), "receipts.sqlite"),
    seed: 1,
    hostClock: systemClock,
    fetch: async (input, init) => {
      if (input.endsWith(NATIVE_PATHS.check) && ++checks === 2) await firstAnswered;
      return inProcessFetch(input, init);
    },
  });
  try {
    const session = broker.newSession(() => "agent");
    const call = async (name: string, args: Record<string, unknown>) => (await session.call(name, args)).structuredContent as Sc;
    const { data: connected } = await call("lomi_connect", { workspaceId: "ws-alpha" });
    const args = {
      workspaceId: "ws-alpha",
      cwdRelative: "",
      title: "Tests",
      expectedRevision: connected.domainRevision,
      retryEpoch: connected.retryEpoch,
      requestKey: "same",
    };
    const replies = [call("lomi_terminal_create", args), call("lomi_terminal_create", args)];
    void Promise.race(replies).then(open);
    const [a, b] = await Promise.all(replies);
    assert.equal(checks, 2, "both requests reached the native check");
    assert.equal(a!.status, "ok", JSON.stringify(a));
    assert.equal(b!.status, "ok", JSON.stringify(b));
    assert.equal(a!.data.operation.operationId, b!.data.operation.operationId);
    assert.deepEqual([a!.data.duplicate, b!.data.duplicate].sort(), [false, true]);
    assert.equal(host.current.ledgerEntries().filter((e) => e.kind === "dispatch").length, 1);
  } finally {
    broker.close();
  }
});
