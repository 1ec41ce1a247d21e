import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { LomiError } from "../../protocol/errors.js";
import { takePidLock } from "../../reference-broker/store-lock.js";

const store = () => path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-lock-")), "receipts.sqlite");

test("the pid lock file refuses a store whose owner lives, with STORE_UNAVAILABLE naming the store", () => {
  const file = store();
  writeFileSync(`${file}.lock`, String(process.ppid)); // a live process that is not this one
  assert.throws(
    () => takePidLock(file),
    (e: unknown) => e instanceof LomiError && e.code === "STORE_UNAVAILABLE" && e.message.includes(file),
  );
});

test("a lock left by a dead owner (SIGKILL leaves it) is taken over, and released on close", () => {
  const file = store();
  const dead = spawnSync(process.execPath, ["-e", ""]).pid;
  writeFileSync(`${file}.lock`, String(dead));
  const release = takePidLock(file);
  assert.equal(readFileSync(`${file}.lock`, "utf8"), String(process.pid));
  release();
  assert.equal(existsSync(`${file}.lock`), false);
});

test("releasing twice (a broker that crashed at a fault point, then abandoned) releases once: the next instance's lock stays", () => {
  const file = store();
  const release = takePidLock(file);
  release();
  const next = takePidLock(file);
  release();
  assert.equal(readFileSync(`${file}.lock`, "utf8"), String(process.pid));
  next();
  assert.equal(existsSync(`${file}.lock`), false);
});

test("an instance standing for another process is refused a lock this live process holds; this process takes over a lock of its own pid an abandoned instance left", () => {
  const file = store();
  const release = takePidLock(file);
  // In-process, a second instance of the command stands for another process: the first's pid is alive.
  assert.throws(
    () => takePidLock(file, process.pid + 1),
    (e: unknown) => e instanceof LomiError && e.code === "STORE_UNAVAILABLE",
  );
  // An instance of this process abandoned without releasing (an in-process crash): its lock is stale.
  const again = takePidLock(file);
  assert.equal(readFileSync(`${file}.lock`, "utf8"), String(process.pid));
  again();
  assert.equal(existsSync(`${file}.lock`), false);
  // The first instance's release finds its lock gone (taken over): nothing to remove, no error.
  release();
});
