import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { kitPath } from "../../protocol/kit-root.js";
import { loadRules, RULES_FILE } from "../rules.js";
import { splitCommand } from "../text/command-line.js";
import type { RunParameters } from "../run/run-parameters.js";

/**
 * Where a verdict comes from, on every report a run writes (conformance.json, junit.xml's
 * properties, conformance.md, the HTML header, the badge's title): the kit and its rules, the
 * broker as the run met it, the profile, seed, Node and start time. A claim that travels (a badge
 * in a README, a report attached to a release) says what made it.
 */
export const provenanceSchema = z.object({
  kit: z.object({ name: z.string(), version: z.string() }),
  /** `sha256:HEX` over the rules and the source text they cite, as `sha256sum FILES | sha256sum` prints it in the kit's folder. */
  rules: z.object({ digest: z.string(), files: z.array(z.string()) }),
  broker: z.object({
    /** How the run named it: "command: …", "url: …", "image: …", "reference broker (in-process)". */
    adapter: z.string(),
    /** The broker's own name and version, from its initialize answer. */
    serverInfo: z.object({ name: z.string(), version: z.string() }).nullable(),
    /** The image's ID, or the sha256 of the file a broker command names (its script or executable), where there is one. */
    digest: z.object({ of: z.string(), sha256: z.string() }).optional(),
  }),
  profile: z.string(),
  seed: z.number(),
  node: z.string(),
  startedAt: z.string(),
});
export type Provenance = z.infer<typeof provenanceSchema>;

const sha256 = (bytes: string | Buffer) => createHash("sha256").update(bytes).digest("hex");

let rules: Provenance["rules"] | undefined;
/** The digest of docs/rules.json and the source text it cites: two runs with the same digest judged by the same rules. */
export function rulesDigest(): Provenance["rules"] {
  if (rules) return rules;
  const files = [path.relative(kitPath(), RULES_FILE), loadRules().source];
  const listing = files.map((f) => `${sha256(readFileSync(kitPath(f)))}  ${f}\n`).join("");
  return (rules = { digest: `sha256:${sha256(listing)}`, files });
}

let kit: Provenance["kit"] | undefined;
/** The installed kit's name and version (its package.json). */
export const kitIdentity = (): Provenance["kit"] =>
  (kit ??= z.object({ name: z.string(), version: z.string() }).parse(JSON.parse(readFileSync(kitPath("package.json"), "utf8"))));

/** A digest's first 12 hex digits, as a title or a headline shows it. */
export const shortDigest = (digest: string) => digest.replace(/^sha256:/, "").slice(0, 12);

/**
 * The file a broker command runs, hashed: the first word that names a regular file from the
 * directory the command runs in (`node dist/broker.js` → dist/broker.js; `./broker` → itself).
 * A command that names none (`npx my-broker`) has no digest.
 */
function commandDigest(line: string, cwd: string): Provenance["broker"]["digest"] {
  for (const word of splitCommand(line)) {
    const file = path.resolve(cwd, word);
    try {
      if (statSync(file).isFile()) return { of: word, sha256: `sha256:${sha256(readFileSync(file))}` };
    } catch {
      // not a file here: the next word may be
    }
  }
  return undefined;
}

/** The broker's identity as the run knows it: how it was named, what it answered, and its digest where one exists. */
export function brokerProvenance(
  parameters: RunParameters,
  adapter: string,
  serverInfo: { name: string; version: string } | undefined,
  imageId?: string,
): Provenance["broker"] {
  const digest =
    parameters.adapter === "command"
      ? commandDigest(parameters.brokerCommand, parameters.brokerCwd)
      : parameters.adapter === "image" && imageId
        ? { of: parameters.brokerImage, sha256: imageId }
        : undefined;
  return { adapter, serverInfo: serverInfo ?? null, ...(digest ? { digest } : {}) };
}

/** A run's provenance, from what it knows when it concludes. */
export function provenanceOf(broker: Provenance["broker"], profile: string, seed: number, startedAt: string): Provenance {
  return { kit: kitIdentity(), rules: rulesDigest(), broker, profile, seed, node: process.version, startedAt };
}

/** One line for a report's header: kit, rules, broker, Node, start. */
export function provenanceText(p: Provenance): string {
  const identity = p.broker.serverInfo ? ` (${p.broker.serverInfo.name} ${p.broker.serverInfo.version})` : "";
  const digest = p.broker.digest ? `, ${p.broker.digest.of} ${shortDigest(p.broker.digest.sha256)}` : "";
  return `${p.kit.name} ${p.kit.version}, rules ${shortDigest(p.rules.digest)} · broker ${p.broker.adapter}${identity}${digest} · profile ${p.profile} · seed ${p.seed} · Node ${p.node} · started ${p.startedAt}`;
}
