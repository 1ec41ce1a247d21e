// Compiles the kit's TypeScript into dist/ (same layout, one .js per .ts; in a clone, its tests too: TEST_DIRS) so the bins start in a
// fraction of a second; `npm install` runs it through `prepare`. esbuild comes with tsx.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  BROKER_BUNDLE,
  BUILD_STAMP,
  DIST,
  MUTANT_BUNDLE,
  ROOT,
  SOURCE_DIRS,
  sourceDigest,
  sources,
  testDirs,
  testsDigest,
  TESTS_STAMP,
  VARIANT_BUNDLE,
} from "../bin/compiled.js";

/** Each bundled broker and the bin that starts it (with the name of the first mutant or variant, for its warm start). */
const BUNDLES = [
  { bundle: BROKER_BUNDLE, bin: "bin/lomi-broker.js", first: async () => [] },
  { bundle: MUTANT_BUNDLE, bin: "mutants/lomi-mutant.js", first: async () => [(await compiled("mutants/index.js")).ALL_MUTANTS[0].name] },
  { bundle: VARIANT_BUNDLE, bin: "variants/lomi-variant.js", first: async () => [(await compiled("variants/index.js")).ALL_VARIANTS[0].name] },
];
const compiled = (file) => import(pathToFileURL(path.join(DIST, file)).href);

// Resolved from tsx, whose dependency it is, rather than from wherever npm happened to hoist it.
const esbuild = createRequire(createRequire(import.meta.url).resolve("tsx/package.json"))("esbuild");

/**
 * zod's `z` namespace re-exports every locale (400 KB, a fifth of the broker's load time), which no
 * bundler can drop from a namespace object. The broker speaks English only: in its bundle the
 * locales namespace holds `en`, the locale zod installs by default.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)
        ? { path: path.join(args.resolveDir, "../locales/en.js"), namespace: "zod-locales" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

const started = Date.now();
rmSync(DIST, { recursive: true, force: true }); // no compiled file outlives its source
// Taken before compiling: a source edited during the build then makes dist/ stale, never fresh.
const digest = sourceDigest();
const tests = testDirs();
const digestOfTests = tests.length > 0 ? testsDigest() : undefined;
const entryPoints = [...SOURCE_DIRS, ...tests].flatMap(sources).map((f) => path.join(ROOT, f));
await esbuild.build({ entryPoints, outdir: DIST, outbase: ROOT, format: "esm", platform: "node", target: "node20", sourcemap: "linked", logLevel: "warning" });
// tools/list's JSON Schemas, converted from the contracts once here instead of at every broker start
// (a harness starts a broker per scenario); the broker reads the file beside its compiled code.
const { TOOLS_LIST_FILE, convertedToolsList } = await compiled("reference-broker/tools-list.js");
writeFileSync(TOOLS_LIST_FILE, `${JSON.stringify(convertedToolsList())}\n`);
// The broker is also bundled with its dependencies into one CommonJS file (better-sqlite3, a native
// addon, stays outside): a harness starts one broker process per scenario, and one file instead of a
// few hundred modules halves its start. CommonJS because only a script can start from V8's code
// cache (bin/compiled.js); what --simulate or --transport http needs still runs only when asked for.
// The mutants' and the variants' brokers are bundled alike: the tests start them per scenario too.
for (const { bundle } of BUNDLES) {
  await esbuild.build({
    entryPoints: [path.join(ROOT, bundle.source)],
    outfile: path.join(DIST, bundle.file),
    bundle: true,
    external: ["better-sqlite3"],
    plugins: [zodEnglishOnly],
    format: "cjs",
    platform: "node",
    target: "node20",
    sourcemap: "linked",
    define: { "import.meta.url": "__lomiImportMetaUrl" },
    banner: { js: 'var __lomiImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    logLevel: "warning",
  });
}
mkdirSync(DIST, { recursive: true });
writeFileSync(BUILD_STAMP, `${digest}\n`);
if (digestOfTests !== undefined) writeFileSync(TESTS_STAMP, `${digestOfTests}\n`);

// One start of each bundled broker writes its code cache, so the first start after an install is as
// fast as the others: initialize and tools/list, then stdin ends and the broker exits.
const hello = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "lomi-build", version: "0" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
];
for (const { bundle, bin, first } of BUNDLES) {
  const name = await first();
  const store = mkdtempSync(path.join(os.tmpdir(), "lomi-build-"));
  const warm = spawnSync(
    process.execPath,
    [path.join(ROOT, bin), ...name, "--native-url", "http://127.0.0.1:9", "--store", path.join(store, "receipts.sqlite"), "--seed", "1"],
    {
      input: hello.map((m) => `${JSON.stringify(m)}\n`).join(""),
      encoding: "utf8",
      env: { ...process.env, LOMI_FROM_SOURCE: "0" },
    },
  );
  rmSync(store, { recursive: true, force: true });
  // Not fatal: without the cache the broker starts from its source, only slower.
  if (!existsSync(path.join(DIST, bundle.cache)))
    process.stderr.write(`lomi build: no code cache for ${bin} (exit ${warm.status}): ${warm.stderr.trim().slice(-500)}\n`);
}
process.stderr.write(`lomi build: ${entryPoints.length} files into dist/ in ${Date.now() - started} ms\n`);
