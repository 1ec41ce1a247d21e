import type { Mutant } from "./mutant.js";
import { storeRecordingMovesAs } from "./rewriting-store.js";

type Saved = { path: string };

export const opCloseSavedFilesSorted: Mutant = {
  name: "op-close-saved-files-sorted",
  family: "OP",
  breaks: ["OP-31"],
  defect: "a workspace close records the files it saved sorted by path, not in the order Lomi saved them",
  parts: {
    openStore: storeRecordingMovesAs((r, step) => {
      const saved = step.fields.result?.savedFiles;
      if (r.tool !== "lomi_workspace_close" || !Array.isArray(saved)) return step;
      const sorted = [...(saved as Saved[])].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return { ...step, fields: { ...step.fields, result: { ...step.fields.result, savedFiles: sorted } } };
    }),
  },
};
