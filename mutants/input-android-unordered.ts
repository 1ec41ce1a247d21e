import type { Mutant } from "./mutant.js";
import { sentPastTheHistory } from "./native-input.js";
import { errorCodeOf, okDataOf, sessionRewritingPicked } from "./rewriting-session.js";

/** The reference broker's answers to an input its ordering holds back: each one this broker sends anyway. */
const ORDERING_REFUSALS = new Set(["INPUT_SEQUENCE_CONFLICT", "INPUT_SEQUENCE_GAP"]);

export const inputAndroidUnordered: Mutant = {
  name: "input-android-unordered",
  family: "INPUT",
  // Android input is ordered like terminal input (INPUT-16): a repeat it sends again is INPUT-03's "sends nothing" too.
  breaks: ["INPUT-16", "INPUT-03"],
  defect:
    "the broker orders terminal input only: every Android input that passes its schema is sent to Lomi as it comes, a repeated inputSequence again and one out of order too",
  parts: {
    session: sessionRewritingPicked(
      ({ tool, reply }) =>
        tool === "lomi_android_input" && (okDataOf(reply)?.acknowledged === "prior-dispatch" || ORDERING_REFUSALS.has(errorCodeOf(reply) ?? "")),
      (_reply, name, args, ctx) => sentPastTheHistory(ctx, name, args),
    ),
  },
};
