import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { KIT_ROOT } from "../../protocol/kit-root.js";

const ROOT = KIT_ROOT;

/** What the reference broker's image is built from, compiler included (node_modules is pinned by package-lock.json). */
export const IMAGE_SOURCES = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "scripts/build.mjs",
  "bin",
  "protocol",
  "reference-broker",
  "simulator",
  "fixtures",
];

function files(relative: string): string[] {
  const full = path.join(ROOT, relative);
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full)
    .sort()
    .flatMap((name) => files(path.join(relative, name)));
}

/** One hash of every source file's path and bytes: an image labelled with it is up to date. */
export function imageSourceHash(): string {
  const hash = createHash("sha256");
  for (const file of IMAGE_SOURCES.flatMap(files))
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(ROOT, file)))
      .update("\0");
  return hash.digest("hex");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.stdout.write(`${imageSourceHash()}\n`);
