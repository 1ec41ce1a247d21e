import { buildToolResult, errorOf } from "../protocol/envelope.js";
import { CATALOGUE, contractOf } from "../protocol/catalogue.js";
import { idempotencyConflict } from "../reference-broker/operation-engine.js";
import type { Mutant } from "./mutant.js";
import { sessionWrappingPicked } from "./rewriting-session.js";

const OPERATION_TOOLS = CATALOGUE.filter((c) => c.kind === "operation").map((c) => c.name);

/**
 * A broker whose receipt key leaves out the tool: a request key already used under another tool
 * finds that tool's receipt, and as its arguments differ, the new request is refused as a conflict.
 */
export const idemKeyIgnoresTool: Mutant = {
  name: "idem-key-ignores-tool",
  family: "IDEM",
  breaks: ["IDEM-04"],
  defect:
    "the receipt key binds pairing, retry epoch, project and request key but not the tool: a request key reused under another tool is refused with IDEMPOTENCY_CONFLICT",
  parts: {
    session: sessionWrappingPicked(
      ({ tool, args }) => contractOf(tool)?.kind === "operation" && typeof args.requestKey === "string",
      async ({ call, core }, name, args) => {
        const { retryEpoch, requestKey, projectId } = args;
        const pairingId = typeof retryEpoch === "string" ? core.store.epoch(retryEpoch)?.pairingId : undefined;
        if (pairingId === undefined || typeof requestKey !== "string") return call(name, args);
        const keyUnder = (tool: string) => {
          try {
            return core.engine.keyOf(pairingId, String(retryEpoch), tool, requestKey, typeof projectId === "string" ? projectId : undefined);
          } catch {
            return undefined; // a project the epoch does not cover: the broker's own refusal answers
          }
        };
        for (const tool of OPERATION_TOOLS.filter((t) => t !== name)) {
          // The key the reference broker would give the same request under that tool.
          const key = keyUnder(tool);
          const prior = key === undefined ? undefined : core.store.byKey(key);
          // As the reference broker answers a key it finds with other arguments.
          if (prior) return buildToolResult(errorOf(idempotencyConflict(prior)));
        }
        return call(name, args);
      },
    ),
  },
};
