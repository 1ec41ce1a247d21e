import { contractOf } from "../protocol/catalogue.js";
import type { OperationContract } from "../protocol/tool-contract.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, sessionWrappingPicked } from "./rewriting-session.js";

/** The input field carrying the revision an operation tool was decided on, if it has one. */
const revisionFieldOf = (tool: string) => {
  const contract = contractOf(tool);
  return contract?.kind === "operation" ? (contract as OperationContract).revisionField : undefined;
};

export const revStaleRevisionRebased: Mutant = {
  name: "rev-stale-revision-rebased",
  family: "REV",
  // A retry carrying its (now stale) revision is rebased too, and conflicts with its own receipt: IDEM-01.
  breaks: ["REV-01", "REV-23", "IDEM-01"],
  defect: "a layout mutation's expectedRevision is replaced by the current domainRevision, so a stale decision is carried out",
  parts: {
    // Layout mutations only: their revision is the domainRevision the panel list gives.
    session: sessionWrappingPicked(
      ({ tool, args }) => revisionFieldOf(tool) === "expectedRevision" && typeof args.workspaceId === "string" && typeof args.expectedRevision === "string",
      async ({ call }, name, args) => {
        const current = okDataOf(await call("lomi_panel_list", { workspaceId: args.workspaceId }))?.domainRevision;
        return call(name, current === undefined ? args : { ...args, expectedRevision: current });
      },
    ),
  },
};
