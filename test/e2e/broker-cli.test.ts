import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";

test("lomi-broker refuses a native bridge URL it cannot speak to at start, naming it (exit 2, no stack)", () => {
  const store = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-broker-cli-")), "receipts.sqlite");
  for (const url of ["https://127.0.0.1:4545", "ws://127.0.0.1:4545"]) {
    const r = spawnSync(process.execPath, ["bin/lomi-broker.js", "--native-url", url, "--store", store], { input: "", encoding: "utf8" });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`native bridge URL must start with http://, not ${url.replace(/[.:/]/g, "\\$&")}`));
    assert.doesNotMatch(r.stderr, /\n\s+at /, "a message, not a stack");
  }
});
