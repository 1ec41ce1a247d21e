import type { Mutant } from "./mutant.js";
import { storeRecordingMovesAs } from "./rewriting-store.js";
import { storeReachedBy } from "./wrapped-store.js";

export const opChatCompleteOnDelivery: Mutant = {
  name: "op-chat-complete-on-delivery",
  family: "OP",
  breaks: ["OP-42"],
  defect: "a Chat send is recorded effectState complete once the provider has the message, before its reply arrives",
  parts: {
    openStore: storeReachedBy(
      // The receipts it rewrites are made by lomi_chat_send calls, which reach every later move of theirs.
      ({ tool }) => tool === "lomi_chat_send",
      storeRecordingMovesAs((r, step) =>
        r.tool === "lomi_chat_send" && step.to === "running" && step.fields.effectState === "partial"
          ? { ...step, fields: { ...step.fields, effectState: "complete" } }
          : step,
      ),
    ),
  },
};
