import { contractOf } from "../protocol/catalogue.js";
import { buildToolResult, errorOf } from "../protocol/envelope.js";
import { LomiError } from "../protocol/errors.js";
import { isOrderedInput } from "../harness/oracles/finding-rules.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, sessionWrappingPicked } from "./rewriting-session.js";

/** Per broker instance, the leases terminal creations carried back: never entered in its lease table. */
const creationLeases = new WeakMap<object, Set<string>>();

export const inputCreationLeaseUnknown: Mutant = {
  name: "input-creation-lease-unknown",
  family: "INPUT",
  // The lease a created terminal's confirmed result gives grants nothing: INPUT-02's "the lease a terminal was created with works the same", and OP-05's lease kept from the confirmed result (as op-created-lease-hashed, which shows the same).
  breaks: ["INPUT-02", "OP-05"],
  defect:
    "the broker enters a lease in its lease table only when lomi_lease_acquire grants it: input under the lease a terminal was created with is refused LEASE_REQUIRED",
  parts: {
    // The inputs it refuses, and the calls whose reply can show a terminal creation's receipt (its own, a read, a cancel): where it learns the leases.
    session: sessionWrappingPicked(
      ({ tool }) => isOrderedInput(tool) || ["lomi_terminal_create", "lomi_operation_get", "lomi_operation_lookup", "lomi_operation_cancel"].includes(tool),
      async ({ call, core }, name, args) => {
        const unregistered = creationLeases.get(core) ?? new Set<string>();
        creationLeases.set(core, unregistered);
        // Arguments its schema refuses are refused as such first, as by the reference broker.
        if (isOrderedInput(name) && unregistered.has(String(args.leaseId)) && contractOf(name)?.input.safeParse(args).success) {
          return buildToolResult(
            errorOf(
              new LomiError("LEASE_REQUIRED", `Lease ${String(args.leaseId)} grants no input here; acquire one with lomi_lease_acquire.`, { field: "leaseId" }),
            ),
          );
        }
        const reply = await call(name, args);
        const operation = okDataOf(reply)?.operation as { tool?: string; result?: { leaseId?: unknown } | null } | undefined;
        if (operation?.tool === "lomi_terminal_create" && typeof operation.result?.leaseId === "string") unregistered.add(operation.result.leaseId);
        return reply;
      },
    ),
  },
};
