// Compiles the kit's TypeScript into dist/ (same layout, one .js per .ts) so the bins start in a
// fraction of a second; `npm install` runs it through `prepare`. esbuild comes with tsx.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { BUILD_STAMP, compiles, DIST, ROOT, SOURCE_DIRS } from "../bin/compiled.js";

// Resolved from tsx, whose dependency it is, rather than from wherever npm happened to hoist it.
const esbuild = createRequire(createRequire(import.meta.url).resolve("tsx/package.json"))("esbuild");

const sources = (dir) =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : compiles(e.name) ? [path.join(dir, e.name)] : [],
  );

const started = Date.now();
rmSync(DIST, { recursive: true, force: true }); // no compiled file outlives its source
const entryPoints = SOURCE_DIRS.flatMap(sources).map((f) => path.join(ROOT, f));
await esbuild.build({ entryPoints, outdir: DIST, outbase: ROOT, format: "esm", platform: "node", target: "node20", sourcemap: "linked", logLevel: "warning" });
mkdirSync(DIST, { recursive: true });
writeFileSync(BUILD_STAMP, `${entryPoints.length}\n`);
process.stderr.write(`lomi build: ${entryPoints.length} files into dist/ in ${Date.now() - started} ms\n`);
