import type { Mutant } from "./mutant.js";
import { sessionRewritingPicked } from "./rewriting-session.js";

export const envErrorsWithoutIsError: Mutant = {
  name: "env-errors-without-iserror",
  family: "ENV",
  breaks: ["ENV-02"],
  defect: "error envelopes are returned with isError false, so a client that trusts isError misses every refusal",
  // A reply that already says isError false is left as it was.
  parts: {
    session: sessionRewritingPicked(
      ({ reply }) => reply.isError !== false,
      (reply) => ({ ...reply, isError: false }),
    ),
  },
};
