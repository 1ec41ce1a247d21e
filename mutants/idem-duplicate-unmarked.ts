import { contractOf } from "../protocol/catalogue.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, okReply, sessionRewritingReplies } from "./rewriting-session.js";

export const idemDuplicateUnmarked: Mutant = {
  name: "idem-duplicate-unmarked",
  family: "IDEM",
  breaks: ["IDEM-01"],
  defect: "a retry answered with the prior operation says duplicate: false, as if it had admitted a new one",
  parts: {
    session: sessionRewritingReplies((reply, name) => {
      const data = okDataOf(reply);
      return contractOf(name)?.kind === "operation" && data?.duplicate === true ? okReply({ ...data, duplicate: false }) : reply;
    }),
  },
};
