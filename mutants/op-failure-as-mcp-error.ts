import { buildToolResult, errorOf } from "../protocol/envelope.js";
import { LomiError } from "../protocol/errors.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, sessionRewritingReplies } from "./rewriting-session.js";

export const opFailureAsMcpError: Mutant = {
  name: "op-failure-as-mcp-error",
  family: "OP",
  breaks: ["OP-03"],
  defect: "reading a failed operation answers an MCP error instead of a successful read of its receipt",
  parts: {
    session: sessionRewritingReplies((reply, name) => {
      const data = okDataOf(reply);
      if (name !== "lomi_operation_get" || data?.operation.state !== "failed") return reply;
      return buildToolResult(errorOf(new LomiError("NATIVE_FAILURE", `Operation ${data.operation.operationId} failed.`, { operationId: data.operation.operationId })));
    }),
  },
};
