import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";

const run = (bin: string, ...args: string[]) => spawnSync(process.execPath, [`bin/${bin}.js`, ...args], { encoding: "utf8", env: { ...process.env, LOMI_NATIVE_URL: "", LOMI_STORE_PATH: "" } });

for (const bin of ["lomi-broker", "lomi-sim", "lomi-conformance"]) {
  test(`${bin} --help explains itself and exits 0`, () => {
    const r = run(bin, "--help");
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^${bin} — `));
    assert.match(r.stdout, /Usage:/);
  });

  test(`${bin} refuses an unknown option with exit 2 and a pointer to --help`, () => {
    const r = run(bin, "--no-such-option");
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--help/);
  });
}

test("lomi-broker without a bridge says what to pass", () => {
  const r = run("lomi-broker", "--store", "/tmp/x.sqlite");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--native-url URL, set LOMI_NATIVE_URL, or use --simulate/);
});

test("lomi-sim with a bad world file names the file", () => {
  const r = run("lomi-sim", "serve", "--world", "/nonexistent/world.json");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /\/nonexistent\/world\.json/);
});

test("lomi-conformance refuses a bad level", () => {
  const r = run("lomi-conformance", "--level", "sometimes");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--level must be must, should or may/);
});
