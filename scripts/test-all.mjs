// npm test: every part runs even when an earlier one failed, and the end says which failed (exit 1
// if any did), so one broken part neither hides the others nor drowns in their output.
import { spawnSync } from "node:child_process";

const PARTS = ["typecheck", "build", "test:unit", "test:e2e", "test:features", "test:crash"];

const results = PARTS.map((part) => {
  process.stdout.write(`\n=== npm run ${part}\n`);
  const started = Date.now();
  const { status, signal } = spawnSync("npm", ["run", "--silent", part], { stdio: "inherit" });
  return { part, ok: status === 0, how: signal ? `killed by ${signal}` : `exit ${status}`, seconds: (Date.now() - started) / 1000 };
});

process.stdout.write("\nnpm test summary:\n");
for (const r of results) process.stdout.write(`  ${r.ok ? "ok    " : "FAILED"} ${r.part.padEnd(14)} ${r.seconds.toFixed(1).padStart(7)} s${r.ok ? "" : ` (${r.how})`}\n`);
const failed = results.filter((r) => !r.ok).length;
process.stdout.write(`parts: ${results.length - failed} passed, ${failed} failed\n`);
process.exit(failed > 0 ? 1 : 0);
