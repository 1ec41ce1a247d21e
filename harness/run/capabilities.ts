/**
 * What a broker under test can take part in; a scenario tagged `@needs-<capability>` is "not
 * applicable" to a broker that lacks it: crashes, two connections at once, fault hooks, a store
 * of the scenario's own (a broker that keeps running keeps one store for every scenario), and a
 * SIGKILL at a chosen moment of the broker's start (killWhileStarting).
 */
export type Capability = "crash" | "multi-connection" | "faults" | "own-store" | "kill-at-start";

/** The tag a scenario carries when it needs a capability. */
export const capabilityTag = (capability: Capability) => `@needs-${capability}`;
export const CAPABILITIES: readonly Capability[] = ["crash", "multi-connection", "faults", "own-store", "kill-at-start"];

/** Why a broker without the capability cannot take part, after its description. */
export const WHY_NOT: Readonly<Record<Capability, string>> = {
  crash: "cannot be crashed and restarted by the harness",
  "multi-connection": "serves one MCP connection at a time (a new process for each), so two connections to one running instance cannot be shown",
  faults: "has no fault hooks (LOMI_BROKER_FAULTS; --broker-faults says it has); see docs/implementers.md",
  "own-store": "keeps one store for every scenario: a scenario that fills the store or counts what it holds needs a store of its own",
  "kill-at-start": "cannot be killed by the harness at a chosen moment of its start (only a broker process can)",
};
