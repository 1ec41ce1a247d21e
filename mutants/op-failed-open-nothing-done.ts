import type { Mutant } from "./mutant.js";
import { storeRecordingMovesAs } from "./rewriting-store.js";

export const opFailedOpenNothingDone: Mutant = {
  name: "op-failed-open-nothing-done",
  family: "OP",
  // A panel opened: effectState none is not what happened natively (OP-04) nor what OP-22 says such an open settles with.
  breaks: ["OP-22", "OP-04"],
  defect: "a browser open whose page did not load is recorded failed with effectState none, as if no panel had opened",
  parts: {
    openStore: storeRecordingMovesAs((r, step) =>
      r.tool === "lomi_browser_open" && step.to === "failed" && step.fields.effectState === "partial"
        ? { ...step, fields: { ...step.fields, effectState: "none" } }
        : step,
    ),
  },
};
