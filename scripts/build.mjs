// Compiles the kit's TypeScript into dist/ (same layout, one .js per .ts) so the bins start in a
// fraction of a second; `npm install` runs it through `prepare`. esbuild comes with tsx.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { BROKER_BUNDLE, BUILD_STAMP, compiles, DIST, ROOT, SOURCE_DIRS } from "../bin/compiled.js";

// Resolved from tsx, whose dependency it is, rather than from wherever npm happened to hoist it.
const esbuild = createRequire(createRequire(import.meta.url).resolve("tsx/package.json"))("esbuild");

const sources = (dir) =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : compiles(e.name) ? [path.join(dir, e.name)] : [],
  );

/**
 * zod's `z` namespace re-exports every locale (400 KB, a fifth of the broker's load time), which no
 * bundler can drop from a namespace object. The broker speaks English only: in its bundle the
 * locales namespace holds `en`, the locale zod installs by default.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir) ? { path: path.join(args.resolveDir, "../locales/en.js"), namespace: "zod-locales" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({ contents: `export { default as en } from ${JSON.stringify(args.path)};`, resolveDir: path.dirname(args.path) }));
  },
};

const started = Date.now();
rmSync(DIST, { recursive: true, force: true }); // no compiled file outlives its source
const entryPoints = SOURCE_DIRS.flatMap(sources).map((f) => path.join(ROOT, f));
await esbuild.build({ entryPoints, outdir: DIST, outbase: ROOT, format: "esm", platform: "node", target: "node20", sourcemap: "linked", logLevel: "warning" });
// The broker is also bundled with its dependencies (better-sqlite3, a native addon, stays outside):
// a harness starts one broker process per scenario, and loading one file instead of a few hundred
// modules halves its start. What only --simulate or --transport http needs is imported dynamically
// and split into chunks of its own, loaded when asked for. `require` is given to the CommonJS inside.
await esbuild.build({
  entryPoints: { [path.basename(BROKER_BUNDLE.file, ".js")]: path.join(ROOT, BROKER_BUNDLE.source) },
  outdir: path.join(DIST, path.dirname(BROKER_BUNDLE.file)),
  bundle: true,
  splitting: true,
  external: ["better-sqlite3"],
  plugins: [zodEnglishOnly],
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  banner: { js: 'import { createRequire as __lomiRequire } from "node:module"; const require = __lomiRequire(import.meta.url);' },
  logLevel: "warning",
});
mkdirSync(DIST, { recursive: true });
writeFileSync(BUILD_STAMP, `${entryPoints.length}\n`);
process.stderr.write(`lomi build: ${entryPoints.length} files into dist/ in ${Date.now() - started} ms\n`);
