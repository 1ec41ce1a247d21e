// npm run catalogue: one real call and reply per tool, taken from the histories of a run of the whole
// suite against the reference broker (the first ok reply of each tool), then docs/catalogue.md and .json.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-catalogue-"));
try {
  execFileSync(process.execPath, ["bin/lomi-conformance.js", "--histories", path.join(dir, "histories"), "--reports", path.join(dir, "reports")], { cwd: ROOT, stdio: "inherit" });
  const examples = {};
  for (const file of readdirSync(path.join(dir, "histories")).sort()) {
    for (const line of readFileSync(path.join(dir, "histories", file), "utf8").split("\n")) {
      if (!line) continue;
      const r = JSON.parse(line);
      if (r.type !== "call" || examples[r.tool] || r.reply.status !== "answered" || r.reply.structuredContent?.status !== "ok") continue;
      examples[r.tool] = { args: r.args, reply: r.reply.structuredContent };
    }
  }
  writeFileSync(path.join(ROOT, "docs/catalogue-examples.json"), `${JSON.stringify(Object.fromEntries(Object.entries(examples).sort()), null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
execFileSync(process.execPath, ["--import", "tsx", "harness/catalogue-doc.ts"], { cwd: ROOT, stdio: "inherit" });
