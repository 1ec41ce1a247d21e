import { contractOf } from "../protocol/catalogue.js";
import type { OperationContract } from "../protocol/tool-contract.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, sessionWrappedBy } from "./rewriting-session.js";

/** Per broker instance, the newest domainRevision it has shown, whichever workspace it was of. */
const newestBy = new WeakMap<object, { revision: bigint | undefined }>();

/** Every domainRevision a reply's data shows, at any depth (a workspace list, a panel list, a receipt's result). */
function revisionsIn(value: unknown): bigint[] {
  if (Array.isArray(value)) return value.flatMap(revisionsIn);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => (k === "domainRevision" && typeof v === "string" && /^\d+$/.test(v) ? [BigInt(v)] : revisionsIn(v)));
}

export const revRevisionOfAnotherWorkspace: Mutant = {
  name: "rev-revision-of-another-workspace",
  family: "REV",
  // A retry carrying its revision is rewritten too, and may conflict with its own receipt: IDEM-01.
  breaks: ["REV-01", "REV-23", "IDEM-01"],
  defect: "the broker keeps one domainRevision for every workspace, the newest it has seen, and sends that in place of a layout mutation's expectedRevision",
  parts: {
    session: sessionWrappedBy(async ({ call, core }, name, args) => {
      const newest = newestBy.get(core) ?? { revision: undefined };
      newestBy.set(core, newest);
      const contract = contractOf(name);
      const field = contract?.kind === "operation" ? (contract as OperationContract).revisionField : undefined;
      const sent =
        field === "expectedRevision" && typeof args[field] === "string" && newest.revision !== undefined ? { ...args, [field]: String(newest.revision) } : args;
      const reply = await call(name, sent);
      for (const r of revisionsIn(okDataOf(reply))) if (newest.revision === undefined || r > newest.revision) newest.revision = r;
      return reply;
    }),
  },
};
