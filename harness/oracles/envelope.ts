import { contractOf } from "../../protocol/catalogue.js";
import { HarnessError } from "../harness-error.js";
import { checkEnvelope } from "../contract-checks/reply-checks.js";
import { INPUT_RULES, inputRules } from "./finding-rules.js";
import { Tally, type Oracle, type Violation } from "./oracle.js";
import { mirrorOf } from "../history/format.js";

/** Every reply is a Lomi envelope that validates against the tool's output schema (the checks every scenario makes). */
export const envelopes: Oracle = {
  id: "envelopes",
  rules: ["ENV-01", "ENV-02", "ENV-03", "ENV-04"],
  title: "every reply is a typed envelope, isError exactly for errors",
  needsLedger: false,
  check({ calls }) {
    const found: Violation[] = [];
    for (const c of calls) {
      if (c.reply.status !== "answered" || !contractOf(c.tool)) continue;
      try {
        // A recording may leave out the text block when it only mirrors structuredContent.
        checkEnvelope(c.tool, { ...c.reply, content: c.reply.content ?? mirrorOf(c.reply.structuredContent) });
      } catch (error) {
        if (!(error instanceof HarnessError)) throw error;
        // The check names the property it found broken: not an envelope, isError, the mirror, the schema.
        found.push({ message: error.message, records: [c.index], rules: error.rules.length > 0 ? [...error.rules] : ["ENV-01"] });
      }
    }
    return found;
  },
  triggers({ calls }) {
    const tally = new Tally();
    tally.add(["ENV-01", "ENV-02", "ENV-03", "ENV-04"], calls.filter((c) => c.reply.status === "answered" && contractOf(c.tool)).length);
    return tally.triggers;
  },
};

/** Input its tool's schema rejects is refused INVALID_ARGUMENT (or a pairing refusal, which may come first). */
export const rejectedInput: Oracle = {
  id: "rejected-input",
  rules: INPUT_RULES,
  title: "input outside the tool's schema is refused",
  needsLedger: false,
  check({ calls }) {
    const found: Violation[] = [];
    for (const c of calls) {
      const contract = contractOf(c.tool);
      if (!contract || c.reply.status !== "answered" || contract.input.safeParse(c.args).success) continue;
      const env = c.envelope;
      const rules = inputRules(c.tool, c.args);
      if (env?.status === "ok")
        found.push({ message: `${c.tool} accepted arguments its input schema rejects: ${JSON.stringify(c.args).slice(0, 300)}`, records: [c.index], rules });
      else if (env && !["INVALID_ARGUMENT", "PAIRING_REQUIRED", "PAIRING_DENIED"].includes(env.code)) {
        found.push({ message: `${c.tool} answered ${env.code} to arguments its input schema rejects; it must be INVALID_ARGUMENT`, records: [c.index], rules });
      }
    }
    return found;
  },
  /** Each answered call whose arguments its tool's schema rejects, under the rule of what is wrong with them. */
  triggers({ calls }) {
    const tally = new Tally();
    for (const c of calls) {
      const contract = contractOf(c.tool);
      if (contract && c.reply.status === "answered" && !contract.input.safeParse(c.args).success) tally.add(inputRules(c.tool, c.args));
    }
    return tally.triggers;
  },
};
