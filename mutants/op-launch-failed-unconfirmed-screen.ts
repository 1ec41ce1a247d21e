import type { Mutant } from "./mutant.js";
import { storeRecordingMovesAs } from "./rewriting-store.js";
import { storeReachedBy } from "./wrapped-store.js";

export const opLaunchFailedUnconfirmedScreen: Mutant = {
  name: "op-launch-failed-unconfirmed-screen",
  family: "OP",
  breaks: ["OP-10"],
  defect: "an Android launch whose result says the screen is not confirmed is recorded failed, though Lomi delivered the intent",
  parts: {
    openStore: storeReachedBy(
      // The receipts it rewrites are made by lomi_android_launch calls, which reach every later move of theirs.
      ({ tool }) => tool === "lomi_android_launch",
      storeRecordingMovesAs((r, step) =>
        r.tool === "lomi_android_launch" && step.to === "succeeded" && step.fields.result?.screenConfirmed === false
          ? { to: "failed", fields: { ...step.fields, error: { code: "NATIVE_FAILURE", message: "The app's screen was not confirmed." } } }
          : step,
      ),
    ),
  },
};
