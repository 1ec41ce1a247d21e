import { contractOf } from "../protocol/catalogue.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, okReply, sessionRewritingPicked } from "./rewriting-session.js";

export const idemDuplicateUnmarked: Mutant = {
  name: "idem-duplicate-unmarked",
  family: "IDEM",
  breaks: ["IDEM-01"],
  defect: "a retry answered with the prior operation says duplicate: false, as if it had admitted a new one",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) => contractOf(tool)?.kind === "operation" && okDataOf(reply)?.duplicate === true,
      (reply) => okReply({ ...okDataOf(reply)!, duplicate: false }),
    ),
  },
};
