import { Tally, type Oracle, type Violation } from "./oracle.js";

/** A pairing the user denied is told so (PAIRING_DENIED), never asked to wait for an approval that will not come. */
export const pairingDecisions: Oracle = {
  id: "pairing-decisions",
  rules: ["AUTH-01", "AUTH-02"],
  title: "a denied pairing reads denied, an approved one is not asked again",
  needsLedger: false,
  check({ calls, faults }) {
    const found: Violation[] = [];
    for (const f of faults) {
      if (f.kind !== "pairing-decision") continue;
      const agent = String(f.detail.agent);
      for (const c of calls) {
        if (c.index < f.index || c.agent !== agent || c.envelope?.status !== "error") continue;
        if (c.envelope.code === "PAIRING_REQUIRED") {
          // Required after a denial breaks AUTH-02 (its own code); after an approval, AUTH-01 (required only until approved).
          found.push({
            message: `the user ${f.detail.decision === "deny" ? "denied" : "approved"} ${agent}'s pairing, then ${c.tool} answered PAIRING_REQUIRED`,
            records: [f.index, c.index],
            rules: [f.detail.decision === "deny" ? "AUTH-02" : "AUTH-01"],
          });
        } else if (f.detail.decision === "approve" && c.envelope.code === "PAIRING_DENIED") {
          found.push({
            message: `the user approved ${agent}'s pairing, then ${c.tool} answered PAIRING_DENIED`,
            records: [f.index, c.index],
            rules: ["AUTH-02"],
          });
        }
      }
    }
    return found;
  },
  /** Each reply to an agent after the user decided its pairing: AUTH-01 after an approval, AUTH-02 after a denial. */
  triggers({ calls, faults }) {
    const tally = new Tally();
    for (const f of faults.filter((x) => x.kind === "pairing-decision")) {
      tally.add(
        f.detail.decision === "deny" ? "AUTH-02" : "AUTH-01",
        calls.filter((c) => c.index > f.index && c.agent === String(f.detail.agent) && c.reply.status === "answered").length,
      );
    }
    return tally.triggers;
  },
};
