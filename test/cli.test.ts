import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { freePort } from "../harness/free-port.js";

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

test("lomi-conformance names one broker at a time and says which options go together", () => {
  const two = run("lomi-conformance", "--broker-cmd", "x", "--broker-url", "http://127.0.0.1:1/mcp");
  assert.equal(two.status, 2);
  assert.match(two.stderr, /name one broker, not --broker-cmd and --broker-url/);
  const port = run("lomi-conformance", "--native-port", "4545");
  assert.equal(port.status, 2);
  assert.match(port.stderr, /--native-port goes with --broker-url/);
  const parallel = run("lomi-conformance", "--broker-url", "http://127.0.0.1:1/mcp", "--parallel", "2");
  assert.equal(parallel.status, 2);
  assert.match(parallel.stderr, /one scenario at a time/);
  const faults = run("lomi-conformance", "--broker-url", "http://127.0.0.1:1/mcp", "--broker-faults");
  assert.equal(faults.status, 2);
  assert.match(faults.stderr, /--broker-faults goes with --broker-cmd or --broker-image/);
  const command = run("lomi-conformance", "stepz");
  assert.equal(command.status, 2);
  assert.match(command.stderr, /unknown command stepz; the commands are steps, explore and check/);
});

test("lomi-conformance --broker-url with nothing listening stops with exit 2 and says what to start", async () => {
  const nativePort = await freePort();
  const r = run("lomi-conformance", "--broker-url", "http://127.0.0.1:9/mcp", "--native-port", String(nativePort), "--timeout-ms", "2000");
  assert.equal(r.status, 2);
  assert.match(r.stderr, new RegExp(`no MCP server answers at http://127\\.0\\.0\\.1:9/mcp .*Start your broker first, with LOMI_NATIVE_URL=http://127\\.0\\.0\\.1:${nativePort}`));
});
