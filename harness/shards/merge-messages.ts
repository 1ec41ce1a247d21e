import type { Envelope } from "@cucumber/messages";
import { configError } from "../harness-error.js";

/**
 * What the shards share: the features, their scenarios, the step definitions and hooks, the run.
 * Each shard emitted its own copy under its own ids (cucumber draws uuids); the merged stream keeps
 * one, and the shards' test cases refer to it. The key names the same definition in every shard,
 * whatever its ids: by file, scenario name, or where the code is; undefined for what is not a definition.
 */
function definitionKey(e: Envelope): string | undefined {
  if (e.meta) return "meta";
  if (e.source) return `source ${e.source.uri}`;
  if (e.gherkinDocument) return `document ${e.gherkinDocument.uri}`;
  if (e.pickle) return `pickle ${e.pickle.uri}:${e.pickle.name}`;
  if (e.stepDefinition) return `step ${JSON.stringify(e.stepDefinition.sourceReference)} ${e.stepDefinition.pattern.source}`;
  if (e.hook) return `hook ${JSON.stringify(e.hook.sourceReference)} ${e.hook.type ?? ""} ${e.hook.tagExpression ?? ""}`;
  if (e.parameterType) return `parameter ${e.parameterType.name}`;
  if (e.undefinedParameterType) return `undefined ${e.undefinedParameterType.name} ${e.undefinedParameterType.expression}`;
  if (e.testRunStarted) return "testRunStarted";
  return undefined;
}

/** Maps every `id` of `other` to the `id` at the same place in `kept`: the two are one definition. */
function zipIds(kept: unknown, other: unknown, ids: Map<string, string>): void {
  if (Array.isArray(kept) && Array.isArray(other)) kept.forEach((k, i) => zipIds(k, other[i], ids));
  else if (kept !== null && other !== null && typeof kept === "object" && typeof other === "object") {
    const theirs = new Map<string, unknown>(Object.entries(other));
    for (const [key, value] of Object.entries(kept)) {
      const their = theirs.get(key);
      if (key === "id" && typeof value === "string" && typeof their === "string") ids.set(their, value);
      else zipIds(value, their, ids);
    }
  }
}

/** Replaces, in place, each string of `value` that is another shard's definition id by the kept one's. */
function rewriteIds(value: object, ids: ReadonlyMap<string, string>): void {
  for (const [key, inner] of Object.entries(value)) {
    if (typeof inner === "string") Reflect.set(value, key, ids.get(inner) ?? inner);
    else if (inner !== null && typeof inner === "object") rewriteIds(inner, ids);
  }
}

/** A copy of a message with each id of another shard's definitions replaced by the kept one's: a copy keeps its type. */
function remapped<T extends object>(message: T, ids: ReadonlyMap<string, string>): T {
  const copy = structuredClone(message);
  rewriteIds(copy, ids);
  return copy;
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
      const key = definitionKey(e);
      if (key === undefined) continue;
      const first = kept.get(key);
      if (!first) {
        kept.set(key, { envelope: e, label: shard.label });
        if (e.testRunStarted) started = e;
        else definitions.push(e);
        continue;
      }
      // The first of this key is a source of the same uri too.
      if (e.source && first.envelope.source?.data !== e.source.data) {
        throw configError(`${shard.label} ran another version of ${e.source.uri} than ${first.label}: shards of one run run the same kit`);
      }
      zipIds(first.envelope, e, ids);
    }
    for (const e of shard.envelopes) {
      if (definitionKey(e) !== undefined) continue;
      if (e.testRunFinished) finishes.push(remapped(e.testRunFinished, ids));
      else runs.push(remapped(e, ids));
    }
  }
  const last = finishes.reduce<(typeof finishes)[number] | undefined>(
    (a, f) => (!a || f.timestamp.seconds * 1e9 + f.timestamp.nanos > a.timestamp.seconds * 1e9 + a.timestamp.nanos ? f : a),
    undefined,
  );
  const finished = last && { testRunFinished: { ...last, success: finishes.every((f) => f.success) } };
  return [...definitions, ...(started ? [started] : []), ...runs, ...(finished ? [finished] : [])];
}
