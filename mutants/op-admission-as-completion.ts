import { contractOf } from "../protocol/catalogue.js";
import { isSettled, type OperationState } from "../protocol/states.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, okReply, sessionRewritingPicked } from "./rewriting-session.js";

export const opAdmissionAsCompletion: Mutant = {
  name: "op-admission-as-completion",
  family: "OP",
  // It says settled, then reads otherwise: a settled state is final (OP-02); cancelling one it called settled changes it (CANCEL-03); one it called settled reads outcome_unknown after a crash (DUR-02);
  // a browser open whose page then fails to load it called succeeded, where it settles failed with effectState partial (OP-22).
  breaks: ["OP-01", "OP-02", "OP-04", "OP-22", "CANCEL-03", "DUR-02"],
  defect: "an admitted operation is reported succeeded with its effect complete before Lomi has done anything",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => {
        const data = okDataOf(reply);
        return contractOf(tool)?.kind === "operation" && data !== undefined && !isSettled(data.operation.state as OperationState);
      },
      (reply) => {
        const data = okDataOf(reply)!;
        return okReply({ ...data, operation: { ...data.operation, state: "succeeded", effectState: "complete" } });
      },
    ),
  },
};
