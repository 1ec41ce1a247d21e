/**
 * Why the harness stopped a scenario. `violation`: the broker broke a rule (a scenario failure);
 * `not-applicable`: the broker under test cannot take part (a verdict, never a pass);
 * `config`: the harness cannot run as asked (exit 2).
 */
export type HarnessErrorKind = "violation" | "not-applicable" | "config";

export class HarnessError extends Error {
  constructor(
    readonly kind: HarnessErrorKind,
    message: string,
  ) {
    super(message);
    this.name = kind === "violation" ? "ConformanceViolation" : kind === "not-applicable" ? "NotApplicable" : "HarnessConfigError";
  }
}

export const violation = (message: string) => new HarnessError("violation", message);
export const notApplicable = (reason: string) => new HarnessError("not-applicable", reason);
export const configError = (message: string) => new HarnessError("config", message);
