import type { Envelope } from "../protocol/envelope.js";

/** A call as a scenario's history records it: the tool, the arguments sent, and the reference broker's reply when one came back. */
export interface SeenCall {
  tool: string;
  args: Record<string, unknown>;
  reply: { structuredContent: Envelope; isError?: boolean } | undefined;
}

/** The calls through which a mutant's part can act: those it picks. */
export type Picks = (call: SeenCall) => boolean;

/**
 * A part (a session, a store) that acts only through the calls `picks` chooses: a run in which the
 * reference broker's history holds none of them is the reference broker's own under the same seed,
 * so `lomi-conformance teeth` judges a mutant made of such parts only where one is.
 */
export const picking = <P extends object>(part: P, picks: Picks): P & { picks: Picks } => Object.assign(part, { picks });

/** The calls a part acts through, when it says; undefined for one that may act on any call. */
export const picksOf = (part: object): Picks | undefined => ("picks" in part ? (part as { picks: Picks }).picks : undefined);
