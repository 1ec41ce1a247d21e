import type { Mutant } from "./mutant.js";
import { storeRecordingMovesAs } from "./rewriting-store.js";
import { storeReachedBy } from "./wrapped-store.js";

export const opFailedOpenNothingDone: Mutant = {
  name: "op-failed-open-nothing-done",
  family: "OP",
  // A panel opened: effectState none is not what happened natively (OP-04) nor what OP-22 says such an open settles with.
  breaks: ["OP-22", "OP-04"],
  defect: "a browser open whose page did not load is recorded failed with effectState none, as if no panel had opened",
  parts: {
    openStore: storeReachedBy(
      // The receipts it rewrites are made by lomi_browser_open calls, which reach every later move of theirs.
      ({ tool }) => tool === "lomi_browser_open",
      storeRecordingMovesAs((r, step) =>
        r.tool === "lomi_browser_open" && step.to === "failed" && step.fields.effectState === "partial"
          ? { ...step, fields: { ...step.fields, effectState: "none" } }
          : step,
      ),
    ),
  },
};
