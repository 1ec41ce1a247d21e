import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { WorldSeed } from "../../protocol/control-api.js";
import type { BrokerPolicy } from "../../reference-broker/broker-policy.js";
import { Broker } from "../../reference-broker/broker.js";
import { connectMcpServer } from "../../reference-broker/mcp-server.js";
import { SimulatorHost } from "../../simulator/host.js";
import { IN_PROCESS_ORIGIN, inProcessFetch, routeInProcess } from "../../simulator/in-process-route.js";
import { readWorldFile } from "../../simulator/world-file.js";
import { HISTORY_FORMAT, historyOf, type History, type HistoryRecord } from "../../harness/history/format.js";
import { SimControl } from "../../harness/lomi/sim-control.js";
import { FaultLink } from "../../harness/record/fault-link.js";
import { FaultPlan, parseFaultSpec } from "../../harness/record/fault-plan.js";
import { TrafficRecorder } from "../../harness/record/tap.js";

export interface BenchOptions {
  /** The agent's session: it gets an SDK client connected (through the recorder and its faults) to the broker. */
  agent(client: Client): Promise<void>;
  clientName: string;
  clientVersion?: string;
  /** record --faults SPEC, or none. */
  faults?: string;
  seed?: number;
  policy?: Partial<BrokerPolicy>;
  /** Receipts the store admits (the source's 4,096 unless set): a small store fills within a session. */
  storeReceipts?: number;
  world?: WorldSeed;
  /** How many decisions the simulated user denies before approving the rest (default 1). */
  denials?: number;
}

/** How far Lomi's virtual clock moves on each call the agent makes: a command of the default world finishes within a few reads. */
const TICK_MS = 500;

/**
 * One agent's session against the reference broker in this process, through the recorder's fault
 * link (the code `record --faults` runs), with a simulated Lomi whose user denies the first decisions
 * and approves the rest, and whose clock moves on with every call. Answers the history the recorder
 * wrote, on Lomi's clock, with Lomi's ledger and pairings at its end.
 */
export async function benchSession(o: BenchOptions): Promise<History> {
  const seed = o.seed ?? 1;
  const host = new SimulatorHost({ ...(o.world ?? readWorldFile()), autoApprovePairings: true }, seed);
  routeInProcess(host);
  const lomi = new SimControl(IN_PROCESS_ORIGIN, inProcessFetch);
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-agent-bench-"));
  const storePath = path.join(dir, "receipts.sqlite");
  const limits = o.storeReceipts === undefined ? undefined : { receipts: o.storeReceipts, epochs: 4096 };
  let starts = 0;
  const start = () =>
    Broker.start({
      nativeUrl: IN_PROCESS_ORIGIN,
      fetch: inProcessFetch,
      storePath,
      seed: seed + starts++,
      hostClock: { now: () => host.current.now() },
      parts: { policy: o.policy ?? {} },
      ...(limits ? { limits } : {}),
    });

  const records: HistoryRecord[] = [{ type: "header", format: HISTORY_FORMAT, source: `agent bench: ${o.clientName}`, seed, ledger: true }];
  const recorder = new TrafficRecorder((r) => records.push(r), { now: () => host.current.now() }, "bench");
  const tap = recorder.connection("bench-1");
  const [clientSide, linkClientSide] = InMemoryTransport.createLinkedPair();

  let broker = await start();
  let brokerSide: InMemoryTransport;
  const wire = async () => {
    const [linkSide, serverSide] = InMemoryTransport.createLinkedPair();
    linkSide.onmessage = (m) => link.fromServer(m);
    await linkSide.start();
    await connectMcpServer(broker, serverSide);
    brokerSide = linkSide;
  };
  let denials = o.denials ?? 1;
  const link: FaultLink = new FaultLink({
    plan: new FaultPlan(parseFaultSpec(o.faults ?? "lose-reply:lomi_workspace_list#1000000"), seed),
    recorder,
    tap,
    lomi,
    toClient: (m) => void linkClientSide.send(m as JSONRPCMessage),
    broker: {
      send: (m) => void brokerSide.send(m as JSONRPCMessage),
      restart: async () => {
        await brokerSide.close();
        broker.close();
        broker = await start();
        await wire();
      },
    },
    // Lomi's side of the session: time passes, and the user answers what Lomi asks.
    beforeForward: async (m) => {
      if ((m as { method?: unknown }).method !== "tools/call") return;
      await lomi.advanceClock(TICK_MS);
      for (const d of await lomi.decisions()) await lomi.decideOperation(d.operationId, denials-- > 0 ? "deny" : "approve");
      for (const a of (await lomi.approvals()).filter((x) => x.state === "pending")) await lomi.decideApproval(a.approvalId, "approve");
    },
    warn: (line) => {
      throw new Error(line);
    },
  });
  await wire();
  linkClientSide.onmessage = (m) => link.fromClient(m);
  await linkClientSide.start();

  const client = new Client({ name: o.clientName, version: o.clientVersion ?? "1.0.0" });
  await client.connect(clientSide);
  try {
    await o.agent(client);
    await link.settled();
  } finally {
    await client.close();
    tap.end("the agent closed the connection");
    broker.close();
    rmSync(dir, { recursive: true, force: true });
  }
  for (const p of await lomi.pairings()) records.push({ type: "pairing", pairingId: p.pairingId, agent: p.clientName });
  for (const entry of host.current.ledgerEntries()) records.push({ type: "ledger", entry });
  return historyOf(records);
}
