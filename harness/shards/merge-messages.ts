import { readFileSync } from "node:fs";
import type { Envelope } from "@cucumber/messages";
import { isOneOf } from "../../protocol/closed-lists.js";
import { configError } from "../harness-error.js";

/**
 * What the shards share: the features, their scenarios, the step definitions and hooks, the run.
 * Each shard emitted its own copy under its own ids (cucumber draws uuids); the merged stream keeps
 * one, and the shards' test cases refer to it.
 */
const DEFINITIONS = ["meta", "source", "gherkinDocument", "pickle", "stepDefinition", "hook", "parameterType", "undefinedParameterType", "testRunStarted"] as const;
type Definition = (typeof DEFINITIONS)[number];

const kindOf = (e: Envelope) => Object.keys(e)[0] as keyof Envelope;
const isDefinition = (kind: string): kind is Definition => isOneOf(DEFINITIONS, kind);

/** The same definition in every shard, whatever its ids: by file, scenario name, or where the code is. */
function keyOf(kind: Definition, e: Envelope): string {
  switch (kind) {
    case "source":
      return `source ${e.source!.uri}`;
    case "gherkinDocument":
      return `document ${e.gherkinDocument!.uri}`;
    case "pickle":
      return `pickle ${e.pickle!.uri}:${e.pickle!.name}`;
    case "stepDefinition":
      return `step ${JSON.stringify(e.stepDefinition!.sourceReference)} ${e.stepDefinition!.pattern.source}`;
    case "hook":
      return `hook ${JSON.stringify(e.hook!.sourceReference)} ${e.hook!.type ?? ""} ${e.hook!.tagExpression ?? ""}`;
    case "parameterType":
      return `parameter ${e.parameterType!.name}`;
    case "undefinedParameterType":
      return `undefined ${e.undefinedParameterType!.name} ${e.undefinedParameterType!.expression}`;
    default:
      return kind;
  }
}

/** Maps every `id` of `other` to the `id` at the same place in `kept`: the two are one definition. */
function zipIds(kept: unknown, other: unknown, ids: Map<string, string>): void {
  if (Array.isArray(kept) && Array.isArray(other)) kept.forEach((k, i) => zipIds(k, other[i], ids));
  else if (kept !== null && other !== null && typeof kept === "object" && typeof other === "object") {
    for (const [key, value] of Object.entries(kept)) {
      const theirs = (other as Record<string, unknown>)[key];
      if (key === "id" && typeof value === "string" && typeof theirs === "string") ids.set(theirs, value);
      else zipIds(value, theirs, ids);
    }
  }
}

/** A value with each id of another shard's definitions replaced by the kept one's. */
function remap(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (typeof value === "string") return ids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => remap(v, ids));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, remap(v, ids)]));
  return value;
}

export function readEnvelopes(file: string): Envelope[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Envelope);
}

/**
 * The shards' cucumber message streams as one run's: each definition once (the first shard's),
 * every shard's test cases pointing at it, one testRunFinished (successful when every shard's was,
 * at the last one's time). The scenario results, the reports and cucumber.html read it as they read
 * an unsharded run's. A feature file that differs between two shards is a foreign shard.
 */
export function mergeMessageStreams(shards: ReadonlyArray<{ label: string; envelopes: readonly Envelope[] }>): Envelope[] {
  const kept = new Map<string, { envelope: Envelope; label: string }>();
  const definitions: Envelope[] = [];
  const runs: Envelope[] = [];
  const finishes: NonNullable<Envelope["testRunFinished"]>[] = [];
  let started: Envelope | undefined;
  for (const shard of shards) {
    const ids = new Map<string, string>();
    for (const e of shard.envelopes) {
      const kind = kindOf(e);
      if (!isDefinition(kind)) continue;
      const key = keyOf(kind, e);
      const first = kept.get(key);
      if (!first) {
        kept.set(key, { envelope: e, label: shard.label });
        if (kind === "testRunStarted") started = e;
        else definitions.push(e);
        continue;
      }
      if (kind === "source" && first.envelope.source!.data !== e.source!.data) {
        throw configError(`${shard.label} ran another version of ${e.source!.uri} than ${first.label}: shards of one run run the same kit`);
      }
      zipIds(first.envelope, e, ids);
    }
    for (const e of shard.envelopes) {
      const kind = kindOf(e);
      if (isDefinition(kind)) continue;
      if (kind === "testRunFinished") finishes.push(remap(e.testRunFinished, ids) as NonNullable<Envelope["testRunFinished"]>);
      else runs.push(remap(e, ids) as Envelope);
    }
  }
  const last = finishes.reduce<(typeof finishes)[number] | undefined>((a, f) => (!a || f.timestamp.seconds * 1e9 + f.timestamp.nanos > a.timestamp.seconds * 1e9 + a.timestamp.nanos ? f : a), undefined);
  const finished = last && { testRunFinished: { ...last, success: finishes.every((f) => f.success) } };
  return [...definitions, ...(started ? [started] : []), ...runs, ...(finished ? [finished] : [])];
}
