import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { kitPath } from "../../protocol/kit-root.js";

const V0_FIXTURE = kitPath("test/fixtures/stores/unversioned-v0.sqlite");
// As root every file is writable: the read-only case runs the broker as root without its
// capabilities (setpriv drops them, CAP_DAC_OVERRIDE included, so a mode 444 file is read-only to it
// and the kit root owns stays readable however private its folder), or else as "nobody".
const AS_ROOT = process.getuid?.() === 0;
const SETPRIV = ["--inh-caps=-all", "--bounding-set=-all", "--"];
const setprivWorks = AS_ROOT && spawnSync("setpriv", [...SETPRIV, "true"], { stdio: "ignore" }).status === 0;
const AS_ANOTHER_USER = AS_ROOT && !setprivWorks ? { uid: 65534, gid: 65534 } : {};
// That user must be able to read the kit: a private checkout (a mode 700 folder on the way) is not.
const broker = path.resolve("bin/lomi-broker.js");
const kitUnreadable =
  setprivWorks || spawnSync(process.execPath, ["-e", `require("node:fs").accessSync(${JSON.stringify(broker)}, 4)`], AS_ANOTHER_USER).status === 0
    ? false
    : `no setpriv to drop root's capabilities, and user nobody cannot read ${broker} (a folder on its way is private), so the broker cannot run without the right to write every file here`;

async function brokerOn(store: string, unprivileged = false): Promise<{ code: number | null; stderr: string }> {
  const args = ["bin/lomi-broker.js", "--simulate", "--store", store];
  const [command, argv] = unprivileged && setprivWorks ? ["setpriv", [...SETPRIV, process.execPath, ...args]] : [process.execPath, args];
  const child = spawn(command, argv, { stdio: ["ignore", "ignore", "pipe"], ...(unprivileged ? AS_ANOTHER_USER : {}) });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stderr };
}

function worldReadableDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-store-e2e-"));
  chmodSync(dir, 0o755);
  return dir;
}

test("lomi-broker refuses another application's database with a message naming it, and leaves it as it was", async () => {
  const dir = worldReadableDir();
  const file = path.join(dir, "app.db");
  const db = new Database(file);
  db.exec("CREATE TABLE receipts (id INTEGER PRIMARY KEY, total REAL)");
  db.close();
  const bytes = readFileSync(file);
  const { code, stderr } = await brokerOn(file);
  assert.equal(code, 2);
  assert.match(stderr, new RegExp(`STORE_UNAVAILABLE: The receipt store ${file} is not a Lomi receipt store`));
  assert.doesNotMatch(stderr, /SqliteError|\n\s+at /, "a message, not a stack");
  assert.deepEqual(readFileSync(file), bytes);
  assert.deepEqual(readdirSync(dir), ["app.db"]);
});

test("a store its user may not write is refused with a clear message, not a SqliteError stack", { skip: kitUnreadable }, async () => {
  const dir = worldReadableDir();
  const file = path.join(dir, "receipts.sqlite");
  copyFileSync(V0_FIXTURE, file);
  chmodSync(file, 0o444);
  const { code, stderr } = await brokerOn(file, true);
  assert.equal(code, 2);
  assert.match(stderr, new RegExp(`The receipt store ${file} .*(not readable and writable|not writable)`));
  assert.doesNotMatch(stderr, /SqliteError|\n\s+at /);
  assert.deepEqual(readdirSync(dir), ["receipts.sqlite"]);
});
