// The bins run the JavaScript that `npm run build` (run by npm install through `prepare`) compiles
// into dist/, because loading the TypeScript through tsx costs seconds at every start. While a
// source file is newer than the build (a developer's edit, a checkout), they run the TypeScript
// through tsx instead, so an edit never runs stale code.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DIST = path.join(ROOT, "dist");
/** Written last by the build: its time says when dist/ was complete, its text how many files it compiled. */
export const BUILD_STAMP = path.join(DIST, "built-at");
/** The folders compiled into dist/ (tests and benchmarks run through tsx). */
export const SOURCE_DIRS = ["protocol", "reference-broker", "simulator", "harness", "steps", "mutants"];

/** The broker bundled into one file (dist/ keeps its modules too, for everything else). */
export const BROKER_BUNDLE = { source: "reference-broker/cli.ts", file: "bundle/lomi-broker.js" };

/** Whether `name` is a file the build compiles. */
export const compiles = (name) => name.endsWith(".ts") && !name.endsWith(".d.ts");

/** The newest file under `dir` and how many files there the build compiles. */
function survey(dir) {
  let newest = 0;
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = survey(full);
      newest = Math.max(newest, inner.newest);
      count += inner.count;
    } else {
      newest = Math.max(newest, statSync(full).mtimeMs);
      if (compiles(entry.name)) count++;
    }
  }
  return { newest, count };
}

/**
 * Whether dist/ was built from the sources as they are: no file is newer than the build, and as
 * many files compile as it compiled (one added or removed since changes the count). Folder times
 * are not used: npm pack and tar do not keep them. A kit that ships dist/ and none of the sources
 * runs dist/.
 */
export function buildIsFresh() {
  // Shipped without its TypeScript (the broker's image): there is nothing the build could lag behind.
  if (!SOURCE_DIRS.some((dir) => existsSync(path.join(ROOT, dir)))) return existsSync(BUILD_STAMP);
  let stamp;
  try {
    stamp = { at: statSync(BUILD_STAMP).mtimeMs, count: Number(readFileSync(BUILD_STAMP, "utf8").trim()) };
  } catch {
    return false;
  }
  let newest = 0;
  let count = 0;
  for (const dir of SOURCE_DIRS) {
    const full = path.join(ROOT, dir);
    if (!existsSync(full)) return false;
    const s = survey(full);
    newest = Math.max(newest, s.newest);
    count += s.count;
  }
  return newest <= stamp.at && count === stamp.count;
}

/**
 * Imports a TypeScript entry point (path from the kit's root): compiled when fresh, else through tsx.
 * `bundle` names the single-file build of it, if there is one.
 */
export async function importEntry(source, bundle) {
  if (process.env.LOMI_FROM_SOURCE !== "1" && buildIsFresh()) {
    // A bundle starts without reading its source map (a few megabytes): NODE_OPTIONS=--enable-source-maps
    // maps its stack traces to the TypeScript. The modules are mapped always, for step locations.
    if (bundle) return import(pathToFileURL(path.join(DIST, bundle)).href);
    process.setSourceMapsEnabled(true);
    return import(pathToFileURL(path.join(DIST, source.replace(/\.ts$/, ".js"))).href);
  }
  const { register } = await import("tsx/esm/api");
  register();
  return import(pathToFileURL(path.join(ROOT, source)).href);
}
