import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LomiError } from "./errors.js";

// The kit's own files (docs, features, fixtures) are found from its root, not from the calling
// module, because the same module runs from its source and compiled into dist/ (one level deeper).
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new LomiError("INTERNAL", `no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return dir;
}

/** The kit's root folder, where package.json is. */
export const KIT_ROOT = findRoot();

/** A path inside the kit, e.g. kitPath("docs/rules.json"). */
export const kitPath = (...parts: string[]): string => path.join(KIT_ROOT, ...parts);
