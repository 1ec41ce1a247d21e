import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { PNG } from "pngjs";
import { BUDGET_MS, TIMEOUT_ARGS } from "../support/budget.js";
import { conformance } from "../support/runs.js";

// Debian's chromium renders the page headless; where it is not installed the test says so and skips.
const CHROMIUM = ["chromium", "chromium-browser"].find((c) => spawnSync(c, ["--version"], { stdio: "ignore" }).status === 0);
// No --hide-scrollbars or #fragment for the screenshot: with either, this chromium paints a blank page.
const HEADLESS = ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,1600"];

/** How many pixels of the screenshot have this colour (the grid's cells, the rule chips). */
function pixelsOf(png: PNG, hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) if (png.data[i] === r && png.data[i + 1] === g && png.data[i + 2] === b) n++;
  return n;
}

test("conformance.html renders in a real browser: the grid in verdict colours, a failed rule opened to its failure", { skip: CHROMIUM ? false : "chromium is not installed (apt-get install chromium)" }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-html-report-"));
  // A mutant that opens a fresh operation per retry fails IDEM-01; OP-05 passes beside it.
  const r = await conformance(["--broker-cmd", "node mutants/lomi-mutant.js idem-fresh-operation-per-retry", "--tags", "@IDEM-01 or @OP-05", ...TIMEOUT_ARGS, "--reports", dir]);
  assert.equal(r.code, 1, r.output.slice(-2000));
  const page = pathToFileURL(path.join(dir, "conformance.html")).href;

  const dom = spawnSync(CHROMIUM!, [...HEADLESS, "--dump-dom", `${page}#OP-05`], { encoding: "utf8", timeout: 6 * BUDGET_MS });
  assert.equal(dom.status, 0, dom.stderr);
  assert.match(dom.stdout, /<details id="OP-05" class="rule" open="">/, "a cell's link opens its rule (the page's script)");
  assert.match(dom.stdout, /<details id="IDEM-01" class="rule" open="">[\s\S]*?Failed at/, "a failed rule is open with its failure");

  const shot = path.join(dir, "conformance.png");
  const run = spawnSync(CHROMIUM!, [...HEADLESS, `--screenshot=${shot}`, page], { encoding: "utf8", timeout: 6 * BUDGET_MS });
  assert.equal(run.status, 0, run.stderr);
  const png = PNG.sync.read(readFileSync(shot));
  assert.equal(png.width, 1280);
  assert.ok(pixelsOf(png, "#cf222e") > 200, "failed rules are drawn red");
  assert.ok(pixelsOf(png, "#1a7f37") > 200, "passed rules are drawn green");
  process.stdout.write(`# screenshot: ${shot}\n`);
});
