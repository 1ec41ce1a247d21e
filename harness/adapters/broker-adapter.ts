import { harnessFault, notApplicable } from "../harness-error.js";
import type { McpConnection } from "../connection/mcp-connection.js";
import { WHY_NOT, type Capability } from "../run/capabilities.js";
import type { SimulatorPlacement } from "../lomi/simulator-fixture.js";
import type { VirtualTimers } from "../../protocol/virtual-timers.js";

/** What killWhileStarting did: how long the broker took to make a store of its own, and how each start ended. */
export interface StartKills {
  storeMs: number;
  starts: Array<{ kind: "killed"; afterFirstWriteMs: number } | { kind: "killed-without-write" } | { kind: "exited-itself" }>;
}

/** One line: "10 starts on a new store, killed at (…): 13 ms, 28 ms, exited by itself ×8": where each kill landed. */
export function describeStartKills({ storeMs, starts }: StartKills): string {
  const words = starts.map((s) =>
    s.kind === "killed" ? `${Math.round(s.afterFirstWriteMs)} ms` : s.kind === "killed-without-write" ? "before any write" : "exited by itself",
  );
  // Runs of the same word: a run of outcomes reads as one word ×n; times stay each their own.
  const runs: Array<{ word: string; count: number }> = [];
  for (const word of words) {
    const last = runs.at(-1);
    if (last?.word === word) last.count++;
    else runs.push({ word, count: 1 });
  }
  const shown = runs.map(({ word, count }) =>
    count > 1 && !word.endsWith(" ms") ? `${word} ×${count}` : Array.from({ length: count }, () => word).join(", "),
  );
  return `${starts.length} starts on a new store, killed at (ms after its first write in the store's directory; a store of its own took ${Math.round(storeMs)} ms from that write to answering initialize): ${shown.join(", ")}`;
}

/** For a step that finds out late that it needs a capability: "not applicable", with the reason. */
export function requireCapability(adapter: BrokerAdapter, capability: Capability): void {
  if (!adapter.capabilities.has(capability)) throw notApplicable(`${adapter.description} ${WHY_NOT[capability]}`);
}

/** What an adapter's start() set (its wiring, its store): a method that needs it before start() is the harness's own fault. */
export function afterStart<T>(value: T | undefined): T {
  if (value === undefined) throw harnessFault("the broker adapter was used before start()");
  return value;
}

export interface BrokerWiring {
  /** The simulator's native bridge, as LOMI_NATIVE_URL. */
  nativeUrl: string;
  /** The receipt store file, as LOMI_STORE_PATH; the same file across restarts. */
  storePath: string;
  seed: number;
  /** Fault hooks to arm in the broker (LOMI_BROKER_FAULTS), for a broker with the "faults" capability. */
  faults?: string[];
}

/** How the harness starts, reaches, kills and restarts one kind of broker. */
export interface BrokerAdapter {
  readonly description: string;
  readonly capabilities: ReadonlySet<Capability>;
  readonly simulator: SimulatorPlacement;
  /**
   * The broker's own timers, where the harness keeps them (a broker in this process): the harness's
   * waits for the broker are the time that passes on them, so a seeded run replays. Absent, the
   * broker keeps real time.
   */
  readonly timers?: VirtualTimers;
  start(wiring: BrokerWiring): Promise<void>;
  connect(clientName: string): Promise<McpConnection>;
  /** Abrupt death: no shutdown code runs, open connections die with it. */
  crash(): Promise<void>;
  /** A new instance on the same store. */
  restart(): Promise<void>;
  /** Ends everything the adapter started: no process or container outlives it. */
  stop(): Promise<void>;
  /**
   * Starts another instance on the live instance's store and reports whether it was refused
   * (and why). Optional: a broker the harness cannot start twice makes the check not applicable.
   */
  probeSecondInstance?(): Promise<{ refused: boolean; detail: string }>;
  /**
   * Starts the broker on a new store and SIGKILLs it once per moment, a fraction (0 to 1) of the
   * time it takes from its first write in the store's directory to answering initialize, measured
   * first on a store of its own (or just after the time it takes to answer, if it writes nothing
   * there while starting), each time on the same store: the next connect starts it on whatever
   * those starts left. Optional: a broker the harness cannot start and kill makes the check not
   * applicable.
   */
  killWhileStarting?(moments: readonly number[]): Promise<StartKills>;
  /** What the broker wrote to stderr (or its log), for failure reports. */
  diagnostics(): string;
}
