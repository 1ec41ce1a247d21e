import { DelegatingReceiptStore } from "../reference-broker/delegating-store.js";
import type { StoredReceipt, TransitionChain, TransitionStep } from "../reference-broker/receipt-store.js";
import type { Mutant } from "./mutant.js";
import { storeReachedBy, storeWrappedBy } from "./wrapped-store.js";

/** Bash's exit code for a process SIGINT ended. */
const INTERRUPTED_EXIT = 130;

/** A command that Lomi says failed with exit code 130 is, to this broker, one the user cancelled: it records it cancelling, then cancelled. */
function asCancelled(current: StoredReceipt, steps: readonly TransitionStep[]): readonly TransitionStep[] {
  if (current.tool !== "lomi_terminal_run") return steps;
  return steps.flatMap((s) =>
    s.to === "failed" && s.fields.result?.exitCode === INTERRUPTED_EXIT
      ? [
          { to: "cancelling" as const, fields: {} },
          { to: "cancelled" as const, fields: { ...s.fields, error: null } },
        ]
      : [s],
  );
}

class InterruptAsCancelStore extends DelegatingReceiptStore {
  override transitionAll(chains: readonly TransitionChain[]) {
    return super.transitionAll(chains.map((c) => ({ ...c, steps: asCancelled(c.current, c.steps) })));
  }
}

export const inputInterruptReadAsCancel: Mutant = {
  name: "input-interrupt-read-as-cancel",
  family: "INPUT",
  breaks: ["INPUT-13"],
  defect:
    "a command that Ctrl+C ended (exit code 130) is recorded cancelling, then cancelled, as if the agent had cancelled its operation, instead of failed with its exit code",
  parts: {
    // The receipts it rewrites are made by lomi_terminal_run calls, which reach every later move of theirs.
    openStore: storeReachedBy(
      ({ tool }) => tool === "lomi_terminal_run",
      storeWrappedBy((inner) => new InterruptAsCancelStore(inner)),
    ),
  },
};
