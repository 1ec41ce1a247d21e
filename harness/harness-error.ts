/**
 * Why the harness stopped a scenario. `violation`: the broker broke a rule (a scenario failure);
 * `not-applicable`: the broker under test cannot take part (a verdict, never a pass);
 * `config`: the harness cannot run as asked (exit 2); `harness`: the harness's own machinery failed
 * (its simulated Lomi did not answer it), which says nothing about the broker (exit 2).
 */
export type HarnessErrorKind = "violation" | "not-applicable" | "config" | "harness";

export class HarnessError extends Error {
  constructor(
    readonly kind: HarnessErrorKind,
    message: string,
    /** For a violation: the rules it breaks, when the check knows them (else the rules its step checks). */
    readonly rules: readonly string[] = [],
    /**
     * For a violation that judges no rule: the broker gave no answer in time (a slow broker is never
     * failed on a clock's word alone), or an answer the scenario could not go on from that no rule's
     * wording names (the gate still fails, naming it).
     */
    readonly unjudged: "no-answer" | "unexpected-answer" | undefined = undefined,
  ) {
    super(message);
    this.name =
      kind === "violation" ? "ConformanceViolation" : kind === "not-applicable" ? "NotApplicable" : kind === "config" ? "HarnessConfigError" : "HarnessFault";
  }
}

/** A broken rule: `rules` names it when the check is of a rule of its own (the envelope checks every reply gets). */
export const violation = (message: string, rules: readonly string[] = []) => new HarnessError("violation", message, rules);
/** No reply within --timeout-ms: the scenario fails, yet none of its rules is blamed (they read "not judged"). */
export const noAnswer = (message: string) => new HarnessError("violation", message, [], "no-answer");
/**
 * An answer a step needed otherwise (a refusal of a request the scenario needs taken): a finding
 * about that answer, failing the rules whose wording it contradicts (`rules`, from what the history
 * shows), or, where none can be named, no rule at all.
 */
export const unexpectedAnswer = (message: string, rules: readonly string[]) =>
  new HarnessError("violation", message, rules, rules.length > 0 ? undefined : "unexpected-answer");
export const notApplicable = (reason: string) => new HarnessError("not-applicable", reason);
export const configError = (message: string) => new HarnessError("config", message);
export const harnessFault = (message: string) => new HarnessError("harness", message);
