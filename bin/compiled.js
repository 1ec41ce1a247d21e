// The bins run the JavaScript that `npm run build` (run by npm install through `prepare`) compiles
// into dist/, because loading the TypeScript through tsx costs seconds at every start. While a
// source file is newer than the build (a developer's edit, a checkout), they run the TypeScript
// through tsx instead, so an edit never runs stale code.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DIST = path.join(ROOT, "dist");
/** Written last by the build: its time says when dist/ was complete. */
export const BUILD_STAMP = path.join(DIST, "built-at");
/** The folders compiled into dist/ (tests and benchmarks run through tsx). */
export const SOURCE_DIRS = ["protocol", "reference-broker", "simulator", "harness", "steps", "mutants"];

/** The newest change under `dir`: a file's edit, or a folder's (a file added, renamed or removed). */
function newestChange(dir) {
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Whether dist/ was built after the last change to any source folder present here. */
export function buildIsFresh() {
  let builtAt;
  try {
    builtAt = statSync(BUILD_STAMP).mtimeMs;
  } catch {
    return false;
  }
  return SOURCE_DIRS.every((dir) => {
    const full = path.join(ROOT, dir);
    try {
      statSync(full);
    } catch {
      return true; // an image or package that ships without this folder
    }
    return newestChange(full) <= builtAt;
  });
}

/** Imports a TypeScript entry point (path from the kit's root): compiled when fresh, else through tsx. */
export async function importEntry(source) {
  if (process.env.LOMI_FROM_SOURCE !== "1" && buildIsFresh()) {
    process.setSourceMapsEnabled(true); // stack traces and step locations name the TypeScript source
    return import(pathToFileURL(path.join(DIST, source.replace(/\.ts$/, ".js"))).href);
  }
  const { register } = await import("tsx/esm/api");
  register();
  return import(pathToFileURL(path.join(ROOT, source)).href);
}
