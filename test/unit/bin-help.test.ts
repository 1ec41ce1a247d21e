import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import os from "node:os";
import { test } from "node:test";
import { kitPath } from "../../protocol/kit-root.js";

// A unit test, so that each Node.js line's pass runs it: a bin sets V8 flags at its start
// (bin/compiled.js), and a V8 without one prints "unrecognized flag" on stderr at every start.
for (const bin of ["lomi-broker", "lomi-sim", "lomi-conformance"]) {
  test(`${bin} --help explains itself, exits 0 and writes nothing on stderr on Node ${process.versions.node}`, () => {
    const r = spawnSync(process.execPath, [kitPath(`bin/${bin}.js`), "--help"], { cwd: os.tmpdir(), encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, "");
    assert.match(r.stdout, new RegExp(`^${bin} — `));
    assert.match(r.stdout, /Usage:/);
  });
}
