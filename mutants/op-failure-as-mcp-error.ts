import { buildToolResult, errorOf } from "../protocol/envelope.js";
import { LomiError } from "../protocol/errors.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, sessionRewritingPicked } from "./rewriting-session.js";

export const opFailureAsMcpError: Mutant = {
  name: "op-failure-as-mcp-error",
  family: "OP",
  breaks: ["OP-03"],
  defect: "reading a failed operation answers an MCP error instead of a successful read of its receipt",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => tool === "lomi_operation_get" && okDataOf(reply)?.operation.state === "failed",
      (reply) => {
        const { operationId } = okDataOf(reply)!.operation;
        return buildToolResult(errorOf(new LomiError("NATIVE_FAILURE", `Operation ${operationId} failed.`, { operationId })));
      },
    ),
  },
};
