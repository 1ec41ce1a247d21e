import { createHash } from "node:crypto";
import type { Mutant } from "./mutant.js";
import { storeRecordingMovesAs } from "./rewriting-store.js";
import { storeReachedBy } from "./wrapped-store.js";

export const opCreatedLeaseHashed: Mutant = {
  name: "op-created-lease-hashed",
  family: "OP",
  // The lease a terminal was created with is INPUT-02's too ("works the same").
  breaks: ["OP-05", "INPUT-02"],
  defect: "the broker stores a created terminal's lease hashed, as it keeps every credential, so the confirmed result gives a hash that grants no input",
  parts: {
    openStore: storeReachedBy(
      // The receipts it rewrites are made by lomi_terminal_create calls, which reach every later move of theirs.
      ({ tool }) => tool === "lomi_terminal_create",
      storeRecordingMovesAs((r, step) => {
        const leaseId = step.fields.result?.leaseId;
        if (r.tool !== "lomi_terminal_create" || typeof leaseId !== "string") return step;
        return { ...step, fields: { ...step.fields, result: { ...step.fields.result, leaseId: createHash("sha256").update(leaseId).digest("hex") } } };
      }),
    ),
  },
};
