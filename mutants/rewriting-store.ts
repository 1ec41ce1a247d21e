import type { BrokerParts } from "../reference-broker/broker.js";
import { DelegatingReceiptStore } from "../reference-broker/delegating-store.js";
import type { StoredReceipt, TransitionChain, TransitionStep } from "../reference-broker/receipt-store.js";
import { storeWrappedBy } from "./wrapped-store.js";

/** Rewrites one move of a receipt as the defective broker records it; answering the step unchanged leaves the move as Lomi said it. */
export type StepRewrite = (receipt: StoredReceipt, step: TransitionStep) => TransitionStep;

/**
 * A store that records what Lomi says of an operation through `rewrite`: the mutant's defect lives in
 * how the broker writes Lomi's answers down, so every later read, retry and event shows it alike.
 */
export function storeRecordingMovesAs(rewrite: StepRewrite): NonNullable<BrokerParts["openStore"]> {
  class Rewriting extends DelegatingReceiptStore {
    override transitionAll(chains: readonly TransitionChain[]) {
      return super.transitionAll(chains.map((c) => ({ ...c, steps: c.steps.map((s) => rewrite(c.current, s)) })));
    }
  }
  return storeWrappedBy((inner) => new Rewriting(inner));
}
