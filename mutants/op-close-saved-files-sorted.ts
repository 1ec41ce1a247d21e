import type { Mutant } from "./mutant.js";
import { storeRecordingMovesAs } from "./rewriting-store.js";
import { storeReachedBy } from "./wrapped-store.js";

type Saved = { path: string };

export const opCloseSavedFilesSorted: Mutant = {
  name: "op-close-saved-files-sorted",
  family: "OP",
  breaks: ["OP-31"],
  defect: "a workspace close records the files it saved sorted by path, not in the order Lomi saved them",
  parts: {
    openStore: storeReachedBy(
      // The receipts it rewrites are made by lomi_workspace_close calls, which reach every later move of theirs.
      ({ tool }) => tool === "lomi_workspace_close",
      storeRecordingMovesAs((r, step) => {
        const saved = step.fields.result?.savedFiles;
        if (r.tool !== "lomi_workspace_close" || !Array.isArray(saved)) return step;
        const sorted = [...(saved as Saved[])].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        return { ...step, fields: { ...step.fields, result: { ...step.fields.result, savedFiles: sorted } } };
      }),
    ),
  },
};
