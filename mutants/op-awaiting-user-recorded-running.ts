import type { Mutant } from "./mutant.js";
import { storeRecordingMovesAs } from "./rewriting-store.js";
import { storeReachedBy } from "./wrapped-store.js";

export const opAwaitingUserRecordedRunning: Mutant = {
  name: "op-awaiting-user-recorded-running",
  family: "OP",
  breaks: ["OP-40", "OP-30"],
  defect: "the broker has no awaiting_user state: work that waits for the user's decision in Lomi is recorded, and read, as running",
  parts: {
    openStore: storeReachedBy(
      // Only these wait for the user's decision in Lomi (their tool descriptions say so): their calls reach every move to awaiting_user.
      ({ tool }) => tool === "lomi_settings_update" || tool === "lomi_workspace_close",
      storeRecordingMovesAs((_r, step) => (step.to === "awaiting_user" ? { ...step, to: "running" } : step)),
    ),
  },
};
