import type { Mutant } from "./mutant.js";
import { storeRecordingMovesAs } from "./rewriting-store.js";
import { storeReachedBy } from "./wrapped-store.js";

export const opUploadFailedUnconfirmedAcceptance: Mutant = {
  name: "op-upload-failed-unconfirmed-acceptance",
  family: "OP",
  breaks: ["OP-20"],
  defect: "a browser upload whose server acceptance is not confirmed is recorded failed, though Lomi attached the file and dispatched its events",
  parts: {
    openStore: storeReachedBy(
      // The receipts it rewrites are made by lomi_browser_upload calls, which reach every later move of theirs.
      ({ tool }) => tool === "lomi_browser_upload",
      storeRecordingMovesAs((r, step) =>
        r.tool === "lomi_browser_upload" && step.to === "succeeded" && step.fields.result?.serverAcceptance === "not_confirmed"
          ? { to: "failed", fields: { ...step.fields, error: { code: "NATIVE_FAILURE", message: "The server did not confirm it accepted the file." } } }
          : step,
      ),
    ),
  },
};
