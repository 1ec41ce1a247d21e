import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { seededRandom } from "../../protocol/ports.js";
import { openSqliteStore } from "../../reference-broker/sqlite-receipt-store.js";
import { kitPath } from "../../protocol/kit-root.js";

const CREATOR = kitPath("test/fixtures/create-stores.mjs");

/** Runs the creator until it has made two stores, lets it go on for `ms` milliseconds, then SIGKILLs it mid-creation. */
async function killCreatorAfter(dir: string, ms: number): Promise<void> {
  const child = spawn(process.execPath, [CREATOR, dir], { stdio: ["ignore", "pipe", "inherit"] });
  let said = "";
  await new Promise<void>((resolve) => child.stdout.on("data", (d: Buffer) => (said += d.toString()).includes("created 1\n") && resolve()));
  await new Promise((resolve) => setTimeout(resolve, ms));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

test("a broker killed at any moment of creating its store leaves a store the next start opens", async (t) => {
  const random = seededRandom(20);
  // A kill lands inside a creation's vulnerable part about one time in five (the old creation, a
  // table per transaction, left a half store in 1 of 5 kills): 24 kills miss it with p < 0.5 %.
  const dirs: string[] = [];
  t.after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  for (let batch = 0; batch < 6; batch++) {
    const mine = Array.from({ length: 4 }, () => mkdtempSync(path.join(os.tmpdir(), "lomi-create-kill-")));
    await Promise.all(mine.map((dir) => killCreatorAfter(dir, 40 + random.int(200))));
    dirs.push(...mine);
  }
  let stores = 0;
  for (const dir of dirs) {
    const files = readdirSync(dir).filter((f) => /^store-\d+\.sqlite$/.test(f));
    assert.ok(files.includes("store-0.sqlite"), "the creator said it made its first store, which is gone");
    for (const f of files) {
      // Each one: complete, or absent; never a refusal of some of its tables.
      const opened = openSqliteStore(path.join(dir, f), Date.now());
      assert.equal(opened.store.status(Date.now()).receipts.count, 0);
      opened.store.close();
    }
    stores += files.length;
    // What the killed creator left beside the store it was making goes when that store is opened.
    for (const scratch of readdirSync(dir).filter((f) => f.includes(".creating-")))
      openSqliteStore(path.join(dir, scratch.split(".creating-")[0]!), Date.now()).store.close();
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes(".creating-")),
      [],
    );
  }
  assert.ok(stores >= 2 * dirs.length, `only ${stores} stores were made: each creator made two before its kill`);
});
