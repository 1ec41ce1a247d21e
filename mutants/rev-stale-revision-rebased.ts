import { contractOf } from "../protocol/catalogue.js";
import type { OperationContract } from "../protocol/tool-contract.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, sessionWrappedBy } from "./rewriting-session.js";

export const revStaleRevisionRebased: Mutant = {
  name: "rev-stale-revision-rebased",
  family: "REV",
  // A retry carrying its (now stale) revision is rebased too, and conflicts with its own receipt: IDEM-01.
  breaks: ["REV-01", "REV-23", "IDEM-01"],
  defect: "a layout mutation's expectedRevision is replaced by the current domainRevision, so a stale decision is carried out",
  parts: {
    session: sessionWrappedBy(async ({ call }, name, args) => {
      const contract = contractOf(name);
      // Layout mutations only: their revision is the domainRevision the panel list gives.
      const field = contract?.kind === "operation" ? (contract as OperationContract).revisionField : undefined;
      if (field !== "expectedRevision" || typeof args.workspaceId !== "string" || typeof args[field] !== "string") return call(name, args);
      const current = okDataOf(await call("lomi_panel_list", { workspaceId: args.workspaceId }))?.domainRevision;
      return call(name, current === undefined ? args : { ...args, [field]: current });
    }),
  },
};
