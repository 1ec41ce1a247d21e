/**
 * Whatever a broker answers reaches the reports through here: a copy any JSON writer can write and
 * any reader can hold. A broker may answer 100,000 nested arrays (JSON.parse takes them;
 * JSON.stringify overflows the stack), megabytes of text, or strings with lone surrogates; the copy
 * keeps the shape a reader needs and says where it cut, so one reply can never crash a report.
 */

export interface Bounds {
  /** Levels of arrays and objects kept; deeper values become a marker. */
  depth: number;
  /** Characters kept of one string. */
  string: number;
  /** Elements kept of one array, keys of one object. */
  items: number;
}

export const REPORT_BOUNDS: Bounds = { depth: 24, string: 4_000, items: 200 };

/** Lone surrogates become U+FFFD: the text is then the same in JSON, XML and HTML, and in UTF-8 on disk. */
const wellFormed = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

function cutString(text: string, max: number): string {
  if (text.length <= max) return wellFormed(text);
  return `${wellFormed(text.slice(0, max))}… [${text.length - max} more characters]`;
}

/** A bounded, JSON-safe copy of `value` (never throws). */
export function bounded(value: unknown, bounds: Bounds = REPORT_BOUNDS): unknown {
  const copy = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v === "number" || typeof v === "boolean") return typeof v === "number" && !Number.isFinite(v) ? String(v) : v;
    if (typeof v === "string") return cutString(v, bounds.string);
    if (typeof v === "bigint") return `${v}n`;
    if (typeof v !== "object") return v === undefined ? undefined : `[${typeof v}]`;
    if (depth >= bounds.depth) return `[${Array.isArray(v) ? "array" : "object"} nested deeper than ${bounds.depth} levels, not shown]`;
    if (Array.isArray(v)) {
      const kept = v.slice(0, bounds.items).map((x) => copy(x, depth + 1) ?? null);
      return v.length > bounds.items ? [...kept, `[${v.length - bounds.items} more elements]`] : kept;
    }
    const entries = Object.entries(v as Record<string, unknown>);
    const out: Record<string, unknown> = {};
    // defineProperty, not assignment: a "__proto__" key the agent sent must reach the report as sent.
    for (const [k, x] of entries.slice(0, bounds.items))
      Object.defineProperty(out, cutString(k, bounds.string), { value: copy(x, depth + 1), enumerable: true, writable: true, configurable: true });
    if (entries.length > bounds.items) out["[more keys]"] = entries.length - bounds.items;
    return out;
  };
  try {
    return copy(value, 0);
  } catch (error) {
    // A getter that throws, a proxy: nothing a wire value has, but the report must still be written.
    return `[a value that cannot be shown: ${error instanceof Error ? error.message : String(error)}]`;
  }
}

/** The value as JSON text of at most `max` characters, for a failure message (never throws). */
export function boundedJson(value: unknown, max = 2_000, indent?: number): string {
  return cutString(JSON.stringify(bounded(value), null, indent) ?? String(value), max);
}

/** A report cell: a string as it is, anything else as JSON, at most `max` characters (never throws). */
export function boundedText(value: unknown, max: number, indent?: number): string {
  return typeof value === "string" ? cutString(value, max) : boundedJson(value, max, indent);
}

/** Text quoted inside a one-line summary (a broker's message, which may span lines): its whitespace runs as one space, bounded. */
export const oneLine = (text: string, max = 300) => cutString(text.replace(/\s+/g, " ").trim(), max);
