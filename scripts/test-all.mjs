// npm test: every part runs even when an earlier one failed, and the end says which failed (exit 1
// if any did), so one broken part neither hides the others nor drowns in their output.
// Lanes in one group run at once, the parts of a lane one after another; a part's output is printed
// whole as it ends (alone in its group, as it comes), so it never interleaves.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statfsSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// The tests are CPU-bound: on 2 cores the wall time is about their CPU seconds over 2, plus the time
// a group's last part runs alone. So after the build everything runs as one group of lanes, each lane's
// parts one after another: the unit tests and then the suite in-process and its crash scenarios, the
// end-to-end tests (three files at a time, which fills the waits of the ones that sleep, the longest
// first: scripts/run-tests.mjs), the type check (which needs no build, and nothing needs it), the
// formatter's check (lint: Prettier, .prettierrc.json). The short lanes fill the end-to-end lane's
// waits; run as a group of their own after it, the suite and its crash scenarios left a core idle.
const ALL = [[["build"]], [["test:unit", "test:features", "test:crash"], ["test:e2e"], ["typecheck"], ["lint"]]];
const PARTS = ALL.flat(2);
// `node scripts/test-all.mjs test:unit test:features` runs only the parts named, in their lanes as above
// (.ci/run's pass on another Node line runs a few of them with the same summary).
const named = process.argv.slice(2);
const unknown = named.filter((part) => !PARTS.includes(part));
if (unknown.length > 0) {
  process.stderr.write(`test-all: no part ${unknown.join(", ")}; the parts are ${PARTS.join(", ")}\n`);
  process.exit(2);
}
const GROUPS =
  named.length === 0
    ? ALL
    : ALL.map((group) => group.map((lane) => lane.filter((part) => named.includes(part))).filter((lane) => lane.length > 0)).filter(
        (group) => group.length > 0,
      );

// The tests reach nothing but loopback, so none needs extra TLS roots; Node 20 parses the file
// NODE_EXTRA_CA_CERTS names at the start of every process (75 ms of CPU each on a 2-core machine),
// and the tests start one for every broker, harness and bin they run.
const { NODE_EXTRA_CA_CERTS: _, ...environment } = process.env;

// Every broker store the tests make is a SQLite file with synchronous=FULL, a fsync at each commit:
// hundreds of stores a minute on a disk shared with other work spend most of a test's time waiting.
// Where the machine has a memory file system (/dev/shm) with room for what the tests leave there
// (about 1.5 GB: reports, histories, the adopter test's installed kit), the tests' temporary files
// go there: the same files and syscalls, a fsync that returns at once. The folder goes when the
// parts are done. (A container's /dev/shm is often 64 MB: the tests then use the usual folder.)
const SCRATCH_ROOM = 4 * 1024 ** 3;
const scratch = (() => {
  try {
    const { bavail, bsize } = statfsSync("/dev/shm");
    return bavail * bsize >= SCRATCH_ROOM ? mkdtempSync(path.join("/dev/shm", "lomi-test-")) : undefined;
  } catch {
    return undefined;
  }
})();
if (scratch) {
  environment.TMPDIR = scratch;
  // Memory the machine needs back whatever ends the tests: Ctrl+C or a CI job's timeout included.
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ]) {
    process.once(signal, () => {
      rmSync(scratch, { recursive: true, force: true });
      process.exit(code);
    });
  }
}

// Node 22 and later keep the code V8 compiled for each module on disk for the next process that loads
// it (Node 20 ignores this): the tests start hundreds of processes that load the same kit, a harness
// run 13 % less CPU with it (Node 24). Every process of the tests shares one cache, in the scratch folder.
environment.NODE_COMPILE_CACHE = path.join(scratch ?? os.tmpdir(), "lomi-test-compile-cache");

// A CI log is often read from its end: the summary names the tests that failed, with their first
// error line, so a failure far up a long log is not lost (node's test runner writes TAP here).
const FAILED_TEST = /^( *)not ok \d+ - (.*)$/;
const ERROR_LINE = /^ *(error|message): *(.*)$/;
function failuresIn(text) {
  const lines = text.split("\n");
  const found = [];
  lines.forEach((line, at) => {
    const failed = FAILED_TEST.exec(line);
    if (!failed) return;
    // A subtest's failure also fails its parent: the innermost one names what broke.
    const depth = failed[1].length;
    const error = lines
      .slice(at + 1, at + 40)
      .map((next) => ERROR_LINE.exec(next))
      .find(Boolean);
    found.push({ depth, name: failed[2], error: error ? error[2].slice(0, 300) : "" });
  });
  return found.filter((f, i) => !(found[i - 1] && found[i - 1].depth > f.depth));
}

/**
 * A part's command, followed by the CPU time it and every process it waited for used (bash's
 * `times`, on fd 3): on a machine shared with other work CPU seconds say more than wall time.
 */
const WITH_CPU = 'npm run --silent "$0"; status=$?; times >&3; exit $status';
const cpuSeconds = (times) => {
  const children = times.trim().split("\n")[1] ?? "";
  return [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, [, m, sec]) => sum + Number(m) * 60 + Number(sec), 0);
};

function run(part, alone) {
  const started = Date.now();
  return new Promise((resolve) => {
    if (alone) process.stdout.write(`\n=== npm run ${part}\n`);
    const child = spawn("bash", ["-c", WITH_CPU, part], { env: environment, stdio: ["ignore", "pipe", "pipe", "pipe"] });
    let times = "";
    child.stdio[3].on("data", (d) => (times += d.toString()));
    const output = [];
    const keep = (stream) => (chunk) => {
      output.push(chunk);
      if (alone) stream.write(chunk);
    };
    child.stdout.on("data", keep(process.stdout));
    child.stderr.on("data", keep(process.stderr));
    child.on("close", (status, signal) => {
      const text = Buffer.concat(output).toString();
      if (!alone) process.stdout.write(`\n=== npm run ${part}\n${text}`);
      resolve({
        part,
        ok: status === 0,
        how: signal ? `killed by ${signal}` : `exit ${status}`,
        seconds: (Date.now() - started) / 1000,
        cpu: cpuSeconds(times),
        failures: status === 0 ? [] : failuresIn(text),
      });
    });
  });
}

const started = Date.now();
const load = os.loadavg()[0];
const results = [];
try {
  for (const group of GROUPS) {
    const alone = group.length === 1 && group[0].length === 1;
    const lanes = await Promise.all(
      group.map(async (lane) => {
        const done = [];
        for (const part of lane) done.push(await run(part, alone));
        return done;
      }),
    );
    results.push(...lanes.flat());
  }
} finally {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}

process.stdout.write(
  `\nnpm test summary (Node ${process.versions.node}, ${os.availableParallelism()} cores, load average ${load.toFixed(1)} at the start and ${os.loadavg()[0].toFixed(1)} at the end${scratch ? "; temporary files in /dev/shm" : ""}):\n`,
);
for (const r of results) {
  process.stdout.write(
    `  ${r.ok ? "ok    " : "FAILED"} ${r.part.padEnd(14)} ${r.seconds.toFixed(1).padStart(7)} s, CPU ${r.cpu.toFixed(1).padStart(6)} s${r.ok ? "" : ` (${r.how})`}\n`,
  );
  for (const f of r.failures) process.stdout.write(`           not ok: ${f.name}${f.error ? `\n             ${f.error}` : ""}\n`);
}
const failed = results.filter((r) => !r.ok).length;
process.stdout.write(
  `parts: ${results.length - failed} passed, ${failed} failed; ${((Date.now() - started) / 1000).toFixed(0)} s in all, CPU ${results.reduce((sum, r) => sum + r.cpu, 0).toFixed(0)} s\n`,
);
process.exit(failed > 0 ? 1 : 0);
