import { buildToolResult, errorOf } from "../protocol/envelope.js";
import { LomiError } from "../protocol/errors.js";
import type { Mutant } from "./mutant.js";
import { errorCodeOf, sessionRewritingPicked } from "./rewriting-session.js";

export const authDenialReadsAsPending: Mutant = {
  name: "auth-denial-reads-as-pending",
  family: "AUTH",
  breaks: ["AUTH-02"],
  defect: "a session the user denied answers PAIRING_REQUIRED, as if the user could still approve it",
  parts: {
    session: sessionRewritingPicked(
      ({ reply }) => errorCodeOf(reply) === "PAIRING_DENIED",
      () => buildToolResult(errorOf(new LomiError("PAIRING_REQUIRED", "Approve the pending session in Lomi Settings."))),
    ),
  },
};
