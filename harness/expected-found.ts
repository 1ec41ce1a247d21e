import { isDeepStrictEqual } from "node:util";
import { violation } from "./harness-error.js";
import { boundedJson, boundedText } from "./text/bounded-json.js";

/**
 * What a step's check found against what it expected, in the kit's own words and one order: each
 * figure that differs as `where: FOUND, expected EXPECTED`, all of them on the failure's first line
 * (the line every report's root causes and the console's CAUSE line show), what the check looked
 * at on the lines below. No assertion library's message reaches a report: theirs prints the
 * difference as a +/- diff, and cucumber printed it a second time with the opposite signs.
 */

/** One figure that differs: where (a path such as `removed.receipts`), what was found, what was expected. */
export interface Difference {
  at: string;
  found: unknown;
  expected: unknown;
}

/** A value as a summary line quotes it: JSON (a string quoted, so "" and " " show), bounded; a missing one "absent". */
export const shown = (value: unknown) => (value === undefined ? "absent" : boundedJson(value, 200));

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const join = (at: string, key: string) => (at === "" ? key : `${at}.${key}`);

/**
 * Where `found` departs from `expected`, figure by figure: objects key by key (with `partial`, only
 * the keys `expected` names), arrays item by item when they are as long, anything else whole.
 */
export function differences(found: unknown, expected: unknown, at = "", partial = false): Difference[] {
  if (isDeepStrictEqual(found, expected)) return [];
  if (isRecord(expected) && isRecord(found)) {
    const keys = partial ? Object.keys(expected) : [...new Set([...Object.keys(expected), ...Object.keys(found)])];
    const out = keys.flatMap((k) => differences(found[k], expected[k], join(at, k), partial));
    // Equal key by key yet not deep-equal (a key present as undefined): the whole values say it.
    return out.length > 0 || partial ? out : [{ at, found, expected }];
  }
  if (Array.isArray(expected) && Array.isArray(found) && expected.length === found.length) {
    const out = expected.flatMap((item, i) => differences(found[i], item, `${at}[${i}]`, partial));
    return out.length > 0 || partial ? out : [{ at, found, expected }];
  }
  return [{ at, found, expected }];
}

/** The differences as a summary line: `removed.receipts: 0, expected 1; removed.events: 0, expected 3`. */
export const differencesText = (found: readonly Difference[]) =>
  found.map((d) => `${d.at === "" ? "" : `${d.at}: `}${shown(d.found)}, expected ${shown(d.expected)}`).join("; ");

const hex = (bytes: Uint8Array) =>
  Buffer.from(bytes)
    .toString("hex")
    .replace(/(..)(?!$)/g, "$1 ");
/** Bytes shown from a difference on: enough to see it, never a file. */
const AROUND = 8;

/**
 * How two byte strings differ, in one line, or undefined when they are the same: the lengths when
 * they differ, and the first byte that differs with the few after it.
 */
export function bytesDifference(found: Uint8Array, expected: Uint8Array): string | undefined {
  if (Buffer.compare(found, expected) === 0) return undefined;
  let first = 0;
  while (first < found.length && first < expected.length && found[first] === expected[first]) first++;
  const from = (b: Uint8Array) => (first >= b.length ? "(the end)" : `${hex(b.subarray(first, first + AROUND))}${b.length > first + AROUND ? " …" : ""}`);
  if (found.length === expected.length) return `byte ${first} of ${found.length} on: ${from(found)}, expected ${from(expected)}`;
  return `${found.length} bytes, expected ${expected.length}; from byte ${first} on: ${from(found)}, expected ${from(expected)}`;
}

export interface Expectation {
  /** Why the values must agree, in the check's own words: shown after the figures. */
  why?: string;
  /** What the check looked at (a reply, Lomi's ledger), for the lines below the summary. */
  seen?: { label: string; value: unknown };
  /** The rules a difference breaks, when the check knows them; else the rules its step checks (docs/writing-scenarios.md). */
  rules?: readonly string[];
}

/** A failed check as one violation: the summary line, then what the check looked at. */
function failed(summary: string, o: Expectation, detail: readonly string[] = []): never {
  const seen = o.seen ? [`${o.seen.label}: ${boundedJson(o.seen.value, 2_000)}`] : [];
  throw violation([`${summary}${o.why ? ` (${o.why})` : ""}`, ...detail, ...seen].join("\n"), o.rules ?? []);
}

/**
 * Fails the step unless `found` deep-equals `expected` (strictly, as node:assert's deepStrictEqual):
 * the summary names every figure that differs, each under `at` (`retryEpochs` → `retryEpochs.count`).
 */
export function expectSame(at: string, found: unknown, expected: unknown, o: Expectation = {}): void {
  if (isDeepStrictEqual(found, expected)) return;
  failed(differencesText(differences(found, expected, at)), o);
}

/** Fails the step unless `found` holds what `expected` names (an object's other keys may be anything). */
export function expectIncluded(at: string, found: unknown, expected: unknown, o: Expectation = {}): void {
  const missing = differences(found, expected, at, true);
  if (missing.length > 0) failed(differencesText(missing), o);
}

/** Fails the step unless the two byte strings are the same: the summary says where they part, the lines below show both. */
export function expectBytes(at: string, found: Uint8Array, expected: Uint8Array, o: Expectation = {}): void {
  const difference = bytesDifference(found, expected);
  if (difference === undefined) return;
  failed(`${at}: ${difference}`, o, [`found:    ${boundedText(hex(found), 600)}`, `expected: ${boundedText(hex(expected), 600)}`]);
}

/** Fails the step unless `found` differs from `other` (a new identifier, a changed image): the summary names the value that stayed. */
export function expectChanged(at: string, found: unknown, other: unknown, o: Expectation = {}): void {
  if (!isDeepStrictEqual(found, other)) return;
  failed(`${at}: ${shown(found)}, expected another value`, o);
}
