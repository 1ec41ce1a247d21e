import { isOneOf } from "../protocol/closed-lists.js";
import { LomiError } from "../protocol/errors.js";

/**
 * Optional fault hooks a harness arms through LOMI_BROKER_FAULTS (comma-separated), so durability
 * scenarios can stop the broker at the exact points that matter. Each armed point fires once.
 * Other brokers may adopt the same names (docs/implementers.md); the harness only relies on them
 * for a broker declared to support them.
 */
export const FAULT_POINTS = ["fail-reserve", "crash-after-reserve", "crash-after-dispatch", "crash-before-settle"] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];

/** Unwinds an in-process broker whose crash hook fired; nothing may handle it but the harness. */
export class BrokerCrashed extends Error {
  constructor(readonly point: FaultPoint) {
    super(`broker crashed at fault hook ${point}`);
    this.name = "BrokerCrashed";
  }
}

const isFaultPoint = (name: string): name is FaultPoint => isOneOf(FAULT_POINTS, name);

export function parseFaultPoints(text: string | undefined): FaultPoint[] {
  const names = (text ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const unknown = names.filter((n) => !isFaultPoint(n));
  if (unknown.length > 0) throw new LomiError("INVALID_ARGUMENT", `Unknown fault hook(s) ${unknown.join(", ")}; known: ${FAULT_POINTS.join(", ")}.`);
  return names.filter(isFaultPoint);
}

export class FaultHooks {
  private readonly armed: Set<FaultPoint>;

  /** `crash` ends the instance abruptly: a real SIGKILL in a process, an abandoned instance in-process. */
  constructor(
    points: Iterable<FaultPoint>,
    private readonly crash: (point: FaultPoint) => never,
  ) {
    this.armed = new Set(points);
  }

  /** Crashes here if this crash point is armed; disarms it. (fail-reserve is a store decorator, FailingReservations.) */
  crashAt(point: Exclude<FaultPoint, "fail-reserve">): void {
    if (this.armed.delete(point)) this.crash(point);
  }
}
