import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { kitIdentity } from "../report/provenance.js";
import { CAPABILITIES } from "../run/capabilities.js";
import { configError } from "../harness-error.js";
import { messageOf } from "../../protocol/errors.js";

/** The file a shard leaves beside its reports: what `merge` checks the shards against each other by. */
export const SHARD_MANIFEST = "shard.json";

const levelSchema = z.enum(["must", "should", "may"]);

/**
 * What a shard ran and how. `run` is what every shard of one run shares (merge refuses a shard whose
 * `run` differs from the others': another kit, seed, broker, tag expression, shard count, selection);
 * the rest is this shard's own.
 */
export const shardManifestSchema = z.strictObject({
  format: z.literal("lomi-shard/1"),
  run: z.strictObject({
    kitVersion: z.string(),
    seed: z.number().int().nonnegative(),
    broker: z.string(),
    tags: z.string().nullable(),
    count: z.number().int().positive(),
    /** sha256 of the whole selection's scenario keys in order: every shard split the same list. */
    selectionDigest: z.string(),
    level: levelSchema,
    requireAll: z.boolean(),
    oracles: z.boolean(),
    timeoutMs: z.number().int().positive(),
    /** The baseline the shards judged by, and its content's sha256: merge judges by the same one. */
    baseline: z.strictObject({ file: z.string(), sha256: z.string() }).nullable(),
  }),
  /** The profile of the adapter, as the merged run reports it. */
  profile: z.strictObject({ name: z.string(), lacks: z.array(z.enum(CAPABILITIES)), elsewhere: z.string() }),
  serverInfo: z.strictObject({ name: z.string(), version: z.string() }).nullable(),
  index: z.number().int().positive(),
  /** The scenario keys (uri:name) this shard ran, in the suite's order. */
  scenarios: z.array(z.string()),
  selectionSize: z.number().int().nonnegative(),
  startedAt: z.string(),
  /** The scenarios' time, as a run's durationMs; and the shard process's whole time, start-up included. */
  durationMs: z.number().nonnegative(),
  wallMs: z.number().nonnegative(),
});
export type ShardManifest = z.infer<typeof shardManifestSchema>;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export const selectionDigest = (keys: readonly string[]) => sha256(keys.join("\n"));

export const fileDigest = (file: string) => sha256(readFileSync(file, "utf8"));

/** The installed kit's version: shards of one run must run the same kit. */
export const kitVersion = (): string => kitIdentity().version;

export function writeShardManifest(dir: string, manifest: ShardManifest): void {
  writeFileSync(path.join(dir, SHARD_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** A shard's manifest, or why the folder is not a shard's reports (a configuration error naming it). */
export function readShardManifest(dir: string): ShardManifest {
  const file = path.join(dir, SHARD_MANIFEST);
  if (!existsSync(file)) {
    const verdict = path.join(dir, "conformance.json");
    const headline = existsSync(verdict) ? z.object({ headline: z.string() }).safeParse(JSON.parse(readFileSync(verdict, "utf8"))) : undefined;
    const why = headline?.success ? `: its conformance.json says ${headline.data.headline}` : existsSync(dir) ? "" : ": no such folder";
    throw configError(`${dir} holds no ${SHARD_MANIFEST}, so it is not a finished shard's reports${why}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw configError(`${file} is not JSON: ${messageOf(error)}`);
  }
  const parsed = shardManifestSchema.safeParse(raw);
  if (!parsed.success)
    throw configError(`${file} is not a shard manifest (at ${parsed.error.issues[0]?.path.join(".") || "(root)"}: ${parsed.error.issues[0]?.message})`);
  return parsed.data;
}
