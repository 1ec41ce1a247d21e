// npm run catalogue: real calls and replies per tool, taken from the histories of a run of the whole
// suite against the reference broker — the first ok reply of each tool, then the first of each other
// reply shape (another data.status, as a reconciliation that completed after one that awaited the
// user) — and the refusals the suite's scenarios made each tool answer; then docs/catalogue.md and .json.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-catalogue-"));
/** What tells one ok reply's shape from another's: its data's status, where it has one. */
const shapeOf = (reply) => (typeof reply.data?.status === "string" ? reply.data.status : "");
try {
  execFileSync(process.execPath, ["bin/lomi-conformance.js", "--histories", path.join(dir, "histories"), "--reports", path.join(dir, "reports")], {
    cwd: ROOT,
    stdio: "inherit",
  });
  const examples = {};
  const shapes = {};
  const refusals = {};
  for (const file of readdirSync(path.join(dir, "histories")).sort()) {
    for (const line of readFileSync(path.join(dir, "histories", file), "utf8").split("\n")) {
      if (!line) continue;
      const r = JSON.parse(line);
      const reply = r.reply?.structuredContent;
      if (r.type !== "call" || r.reply.status !== "answered" || !reply) continue;
      if (reply.status === "error" && typeof reply.code === "string") (refusals[r.tool] ??= new Set()).add(reply.code);
      if (reply.status !== "ok") continue;
      const seen = (shapes[r.tool] ??= new Set());
      if (seen.has(shapeOf(reply))) continue;
      seen.add(shapeOf(reply));
      if (!examples[r.tool]) examples[r.tool] = { args: r.args, reply };
      else (examples[r.tool].also ??= []).push({ args: r.args, reply });
    }
  }
  for (const [tool, codes] of Object.entries(refusals)) if (examples[tool]) examples[tool].refusals = [...codes].sort();
  writeFileSync(path.join(ROOT, "docs/catalogue-examples.json"), `${JSON.stringify(Object.fromEntries(Object.entries(examples).sort()), null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
execFileSync(process.execPath, ["--import", "tsx", "harness/authoring/catalogue-doc.ts"], { cwd: ROOT, stdio: "inherit" });
