// The bins run the JavaScript that `npm run build` (run by npm install through `prepare`) compiles
// into dist/, because loading the TypeScript through tsx costs seconds at every start. While the
// sources differ from what the build compiled (a developer's edit, a checkout), they run the
// TypeScript through tsx instead, so an edit never runs stale code. Freshness is judged by content,
// not file times: npm stamps the files it extracts with the time of the install, in any order.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import nodeModule, { createRequire } from "node:module";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DIST = path.join(ROOT, "dist");
/** Written last by the build: the digest of the sources it compiled (sourceDigest()). */
export const BUILD_STAMP = path.join(DIST, "built-at");
/** The folders compiled into dist/: the kit a user runs. */
export const SOURCE_DIRS = ["protocol", "reference-broker", "simulator", "harness", "steps", "mutants", "variants"];
/**
 * The kit's own tests and what they import, compiled into dist/ beside the kit when they are there (a
 * clone, not the package: package.json's files leaves them out): `npm test` runs them compiled, since
 * loading a test file and the kit through tsx cost it about 0.6 s of CPU per file.
 */
export const TEST_DIRS = ["test", "bench", "examples"];
/** Written last by the build beside the compiled tests: the digest of what it compiled of TEST_DIRS (testsDigest()). */
export const TESTS_STAMP = path.join(DIST, "test", "built-at");
/** The build's own recipe: a change to it makes dist/ stale too. */
const BUILD_SCRIPT = "scripts/build.mjs";

/** The broker bundled into one CommonJS file with its V8 code cache (dist/ keeps its modules too, for everything else). */
export const BROKER_BUNDLE = { source: "reference-broker/cli.ts", file: "bundle/lomi-broker.cjs", cache: "bundle/lomi-broker.cjs.v8-cache" };
/** The mutants' and the variants' brokers, bundled the same way: the tests start one per scenario as they start the reference broker. */
export const MUTANT_BUNDLE = { source: "mutants/run-mutant.ts", file: "bundle/lomi-mutant.cjs", cache: "bundle/lomi-mutant.cjs.v8-cache" };
export const VARIANT_BUNDLE = { source: "variants/run-variant.ts", file: "bundle/lomi-variant.cjs", cache: "bundle/lomi-variant.cjs.v8-cache" };

/** Whether `name` is a file the build compiles. */
export const compiles = (name) => name.endsWith(".ts") && !name.endsWith(".d.ts");

/** The files under `dir` (relative to the kit's root) that the build compiles, in a stable order. */
export function sources(dir) {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : compiles(e.name) ? [path.join(dir, e.name)] : []));
}

/** One digest of every compiled source's path and bytes, and of the build script: what dist/ was made from. */
export const sourceDigest = () => digestOf([...SOURCE_DIRS.flatMap(sources), ...(existsSync(path.join(ROOT, BUILD_SCRIPT)) ? [BUILD_SCRIPT] : [])]);

/** The test folders this copy of the kit has (none in the package). */
export const testDirs = () => TEST_DIRS.filter((dir) => existsSync(path.join(ROOT, dir)));

/** One digest of the compiled tests' sources: what dist/test/ was made from. */
export const testsDigest = () => digestOf(testDirs().flatMap(sources));

function digestOf(files) {
  const hash = createHash("sha256");
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(ROOT, file)))
      .update("\0");
  return hash.digest("hex");
}

/** The digest the build recorded in `stamp`, or undefined when there is no complete build. */
function stampedDigest(stamp = BUILD_STAMP) {
  try {
    return readFileSync(stamp, "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether dist/ was built from the sources as they are: the digest of their bytes is the one the
 * build recorded (a file added, removed or changed since changes it). A kit that ships dist/ and
 * none of the sources (the broker's image) runs dist/.
 */
export function buildIsFresh() {
  const stamped = stampedDigest();
  if (stamped === undefined) return false;
  // Shipped without its TypeScript: there is nothing the build could lag behind.
  if (!SOURCE_DIRS.some((dir) => existsSync(path.join(ROOT, dir)))) return true;
  if (!SOURCE_DIRS.every((dir) => existsSync(path.join(ROOT, dir)))) return false;
  return sourceDigest() === stamped;
}

/** Whether dist/ holds the build of the sources and of the tests as they are (what `npm test` runs). */
export const testsAreFresh = () => buildIsFresh() && stampedDigest(TESTS_STAMP) === testsDigest();

/**
 * Runs a CommonJS bundle from V8's code cache (Node 20 has no compile cache for modules): a start
 * then skips most parsing and compiling, about a fifth of the broker's start-up CPU. A cache V8
 * rejects (another node, other flags) or that is missing is written again when this process exits,
 * with what it compiled by then; where dist/ is read-only the bundle simply starts without one.
 */
function requireBundle(bundle) {
  const file = path.join(DIST, bundle.file);
  // Node maps no stack trace of a vm.Script to its source: asked for source maps, require it plainly.
  if (process.sourceMapsEnabled) return createRequire(import.meta.url)(file);
  const cacheFile = path.join(DIST, bundle.cache);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const wrapper = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, "utf8")}\n})`;
  // No importModuleDynamically: esbuild turns the bundle's import() into require, and the constant
  // for it exists only from Node 20.12 while the kit supports every Node 20.
  const script = new vm.Script(wrapper, { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once("exit", () => {
      const temporary = `${cacheFile}.${process.pid}`;
      try {
        writeFileSync(temporary, script.createCachedData());
        renameSync(temporary, cacheFile); // whole or not at all: brokers start side by side
      } catch {
        rmSync(temporary, { force: true });
      }
    });
  }
  return module.exports;
}

/**
 * What a bin that found dist/ fresh leaves in the environment of the processes it starts (a harness's
 * brokers, one per scenario): the kit and the build it checked. A process of the same kit and build
 * skips reading and hashing the sources, 6 to 17 ms of each broker's start; an edit during a run is picked
 * up by the next run, as the harness itself runs the build it started with.
 */
const FRESH_BUILD = "LOMI_FRESH_BUILD";

function buildToken() {
  const stamped = stampedDigest();
  return stamped === undefined ? undefined : `${stamped} ${ROOT}`;
}

/** buildIsFresh(), unless a process that started this one checked the same build already. */
function runsFreshBuild() {
  const token = buildToken();
  if (token !== undefined && process.env[FRESH_BUILD] === token) return true;
  if (!buildIsFresh()) return false;
  if (token !== undefined) process.env[FRESH_BUILD] = token;
  return true;
}

/**
 * V8's optimizing budget, four times its default, where this node's V8 has the flag: V8 12 and later
 * (Node 22, 24) tier up by invocation counts instead, and print "unrecognized flag" on stderr when set it.
 */
export const BUDGET_FLAG = Number(process.versions.v8.split(".")[0]) < 12 ? "--interrupt-budget=270000" : undefined;

/**
 * Imports a TypeScript entry point (path from the kit's root): compiled when fresh, else through tsx.
 * `bundle` names the single-file build of it, if there is one.
 */
export async function importEntry(source, bundle) {
  // A bin's process is mostly start-up: V8's default budget sends functions that run a few times while
  // modules load to the optimizing compiler, whose work a short run throws away. Four times the budget
  // takes 15 % less CPU for a conformance run of a few scenarios and as much for the whole suite
  // (bench/startup.bench.ts compares the bins with bare node).
  if (BUDGET_FLAG !== undefined) v8.setFlagsFromString(BUDGET_FLAG);
  // Node 22 and later: the code V8 compiles for each module is kept on disk for the next start (in
  // $NODE_COMPILE_CACHE, else the system's temporary folder), 13 % of a harness run's CPU on Node 24.
  nodeModule.enableCompileCache?.();
  if (process.env.LOMI_FROM_SOURCE !== "1" && runsFreshBuild()) {
    // Nothing reads its source maps at start (a map for each of ~1,000 modules, a quarter of a second):
    // NODE_OPTIONS=--enable-source-maps maps stack traces to the TypeScript. The harness maps its step
    // files, for their locations (harness/run/step-files.ts).
    if (bundle) return requireBundle(bundle);
    return import(pathToFileURL(path.join(DIST, source.replace(/\.ts$/, ".js"))).href);
  }
  const { register } = await import("tsx/esm/api");
  register();
  return import(pathToFileURL(path.join(ROOT, source)).href);
}
