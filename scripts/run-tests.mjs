// npm run test:unit / test:e2e: node's test runner on the kit's tests as the build compiled them into
// dist/test/ (one process per test file, each loading the kit: through tsx that cost about 0.6 s of CPU
// more per file than the compiled JavaScript). It builds first when dist/ is not the build of the
// sources and tests as they are, so an edit is never tested stale.
//   node scripts/run-tests.mjs unit|e2e [test/unit/x.test.ts ...]
// Named files run alone (their TypeScript paths, as a developer types them); else the kind's every test.
// A test file still runs from its TypeScript too: node --import tsx --test test/unit/x.test.ts.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { BUDGET_FLAG, DIST, ROOT, sources, testsAreFresh } from "../bin/compiled.js";

// The end-to-end files wait on processes they start (brokers, harnesses): three at a time fill two cores.
const CONCURRENCY = { unit: 2, e2e: 3 };
const [kind, ...named] = process.argv.slice(2);
if (!(kind in CONCURRENCY)) {
  process.stderr.write(`run-tests: usage: node scripts/run-tests.mjs ${Object.keys(CONCURRENCY).join("|")} [test file ...]\n`);
  process.exit(2);
}
// The files that take longest (CPU seconds measured on 2 cores: 150, 100, 85, 70, 45) start first, so
// that none starts late and ends alone on a core while the other idles.
const LONGEST = ["blame-precision", "variants", "adopter-ci", "mutants", "cli"].map((name) => path.join("test", "e2e", `${name}.test.ts`));
const rank = (file) => (LONGEST.includes(file) ? LONGEST.indexOf(file) : LONGEST.length);
const files =
  named.length > 0
    ? named.map((f) => path.relative(ROOT, path.resolve(f)))
    : sources(`test/${kind}`)
        .filter((f) => f.endsWith(".test.ts"))
        .sort((a, b) => rank(a) - rank(b));
const outside = files.filter((f) => !f.startsWith(`test${path.sep}`) || !f.endsWith(".ts"));
if (outside.length > 0) {
  process.stderr.write(`run-tests: not a test file of the kit (test/**/*.ts): ${outside.join(", ")}\n`);
  process.exit(2);
}

if (!testsAreFresh()) {
  const build = spawnSync(process.execPath, [path.join(ROOT, "scripts/build.mjs")], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
/**
 * The unit tests share processes, CONCURRENCY.unit of them, each importing its share of the files: a
 * process per file loaded the kit (zod's schemas, cucumber, the broker) once per file, about 40 % of
 * their CPU (Node 20 has no --experimental-test-isolation=none; a file that imports the others does
 * the same). node:test runs a process's top-level tests one after another, so the files' tests do not
 * overlap. A file with a hook at its top level keeps a process of its own: in a shared one its hook
 * would be the process's, run around every file's tests. The end-to-end files keep theirs (they wait
 * on the processes they start, three files at a time), and so do files named on the command line.
 */
function processes(files) {
  if (kind !== "unit" || named.length > 0) return files.map(compiledOf);
  const alone = new Set(files.filter((f) => /^(before|after|beforeEach|afterEach)\(/m.test(readFileSync(path.join(ROOT, f), "utf8"))));
  const shared = files.filter((f) => !alone.has(f));
  const dir = path.join(DIST, "test", "shared-processes");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const groups = Array.from({ length: CONCURRENCY.unit }, (_, k) => {
    const entry = path.join(dir, `unit-${k + 1}.test.js`);
    const mine = shared.filter((_, i) => i % CONCURRENCY.unit === k);
    writeFileSync(entry, mine.map((f) => `import ${JSON.stringify(pathToFileURL(compiledOf(f)).href)};\n`).join(""));
    return entry;
  });
  return [...groups, ...[...alone].map(compiledOf)];
}

// Each test file's process is mostly loading and short runs, as a bin's is (bin/compiled.js): four times
// V8's optimizing budget took 7 % less CPU for the unit tests. Only a command-line flag reaches the runner's
// child processes in time (their execArgv); where node's V8 has no such flag (Node 22, 24) there is none.
const budget = BUDGET_FLAG === undefined ? [] : [BUDGET_FLAG];
const compiledOf = (f) => path.join(DIST, f.replace(/\.ts$/, ".js"));
const run = spawnSync(process.execPath, [...budget, "--test", `--test-concurrency=${CONCURRENCY[kind]}`, ...processes(files)], {
  stdio: "inherit",
});
process.exit(run.status ?? 1);
