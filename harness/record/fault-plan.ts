import { contractOf, isToolName } from "../../protocol/catalogue.js";
import { seededRandom, type Random } from "../../protocol/ports.js";
import { configError } from "../harness-error.js";

/**
 * `record --faults SPEC`: what the recorder does to the traffic between an agent and its broker, so
 * the agent's recovery is exercised and judged (docs/agents.md, "Faults"). The grammar:
 *
 *   SPEC    := ITEM ("," ITEM)*
 *   ITEM    := KIND ":" SUBJECT [ "#" N | "@" P "%" ]
 *   KIND    := lose-reply | restart | hold
 *   SUBJECT := a tool name (lomi_terminal_run) | op (any operation tool)
 *
 * `#N` picks the N-th call of the subject (the first when neither is given); `@P%` each call of it
 * with probability P, drawn from --seed. The first item that picks a call decides its fault.
 */
export const FAULT_SPEC_KINDS = ["lose-reply", "restart", "hold"] as const;
export type FaultSpecKind = (typeof FAULT_SPEC_KINDS)[number];

export interface FaultItem {
  kind: FaultSpecKind;
  /** A tool name, or "op" for every operation tool. */
  subject: string;
  pick: { nth: number } | { percent: number };
  /** The item as written, for messages and the history. */
  text: string;
}

export interface FaultSpec {
  text: string;
  items: FaultItem[];
}

const ANY_OPERATION = "op";
const ITEM = /^([a-z-]+):([a-z_]+)(?:#(\d+)|@(\d+(?:\.\d+)?)%)?$/;

const bad = (text: string, problem: string) =>
  configError(`record --faults: "${text}" ${problem}; the grammar is KIND:SUBJECT[#N|@P%] (docs/agents.md, "Faults")`);

/** SPEC read, or a config error naming the item at fault and why. */
export function parseFaultSpec(text: string): FaultSpec {
  if (text.trim() === "") throw bad(text, "names no fault");
  const items = text.split(",").map((raw): FaultItem => {
    const item = raw.trim();
    const m = ITEM.exec(item);
    if (!m) throw bad(item, "is not an item");
    const [, kind, subject, nth, percent] = m as unknown as [string, string, string, string | undefined, string | undefined];
    const known = FAULT_SPEC_KINDS.find((k) => k === kind);
    if (!known) throw bad(item, `names no fault kind (${FAULT_SPEC_KINDS.join(", ")})`);
    if (subject !== ANY_OPERATION && !isToolName(subject))
      throw bad(item, `names no tool of the catalogue (a tool name, or ${ANY_OPERATION} for every operation tool)`);
    if (known === "hold" && subject !== ANY_OPERATION && contractOf(subject)?.kind !== "operation")
      throw bad(item, "holds a tool that dispatches nothing to Lomi: hold takes an operation tool");
    if (nth !== undefined && Number(nth) < 1) throw bad(item, "counts calls from #1");
    const p = percent === undefined ? undefined : Number(percent);
    if (p !== undefined && (p <= 0 || p > 100)) throw bad(item, "takes a probability above 0% and at most 100%");
    return { kind: known, subject, pick: p !== undefined ? { percent: p } : { nth: nth === undefined ? 1 : Number(nth) }, text: item };
  });
  return { text, items };
}

/** The fault a call gets, and the item that chose it. */
export interface FaultChoice {
  kind: FaultSpecKind;
  item: string;
}

/**
 * Which calls get which fault: counts each subject's calls and draws each `@P%` from the seed, so
 * the same spec, seed and sequence of calls pick the same calls.
 */
export class FaultPlan {
  private readonly counts = new Map<string, number>();
  private readonly random: Random;

  constructor(
    readonly spec: FaultSpec,
    readonly seed: number,
  ) {
    this.random = seededRandom(seed);
  }

  /** Whether this plan can hold a dispatch: only with a simulated Lomi's control API to hold it in. */
  get holds(): boolean {
    return this.spec.items.some((i) => i.kind === "hold");
  }

  get restarts(): boolean {
    return this.spec.items.some((i) => i.kind === "restart");
  }

  /** The fault for the next tools/call of `tool`, if any. Every item counts the call, chosen or not. */
  next(tool: string): FaultChoice | undefined {
    const isOperation = contractOf(tool)?.kind === "operation";
    let chosen: FaultChoice | undefined;
    for (const subject of new Set([tool, ...(isOperation ? [ANY_OPERATION] : [])])) this.counts.set(subject, (this.counts.get(subject) ?? 0) + 1);
    for (const item of this.spec.items) {
      if (item.subject !== tool && !(item.subject === ANY_OPERATION && isOperation)) continue;
      // Every drawing item draws for every call of its subject, so one item's choice never shifts another's draws.
      const hit = "nth" in item.pick ? this.counts.get(item.subject) === item.pick.nth : this.random.int(10_000) < item.pick.percent * 100;
      if (hit && !chosen) chosen = { kind: item.kind, item: item.text };
    }
    return chosen;
  }
}
