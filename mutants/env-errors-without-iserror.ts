import type { Mutant } from "./mutant.js";
import { sessionRewritingReplies } from "./rewriting-session.js";

export const envErrorsWithoutIsError: Mutant = {
  name: "env-errors-without-iserror",
  family: "ENV",
  breaks: ["ENV-02"],
  defect: "error envelopes are returned with isError false, so a client that trusts isError misses every refusal",
  parts: { session: sessionRewritingReplies((reply) => ({ ...reply, isError: false })) },
};
