import assert from "node:assert/strict";
import { test } from "node:test";
import { parseHistory } from "../../harness/history/format.js";
import { checkHistory } from "../../harness/oracles/index.js";
import { htmlReport } from "../../harness/check/check-report.js";
import { BASE_STYLE, escapeHtml, VERDICT_COLOUR } from "../../harness/report/html-page.js";
import { htmlReport as conformanceHtml } from "../../harness/report/html-report.js";
import { notRunSummary } from "../../harness/report/run-summary.js";

// `check --report x.html` reads as conformance.html does: the same base style and verdict colours,
// the verdict first, and each call's arguments whole however long (a file write's 3,000 characters).

const content = "echo ok\n".repeat(375);
const line = (record: unknown) => JSON.stringify(record);
const at = "2026-01-05T09:00:00.000Z";
const HISTORY = [
  line({ type: "header", format: "lomi-history/1", source: "lomi-conformance record (stdio): broker", clock: "recorder" }),
  line({
    type: "call",
    agent: "claude-desktop",
    connection: "stdio-1",
    tool: "lomi_file_write",
    args: { workspaceId: "ws-alpha", path: "scripts/test.cmd", content },
    sentAt: at,
    answeredAt: at,
    reply: {
      status: "answered",
      isError: true,
      structuredContent: { controlApiVersion: "1.0", status: "error", code: "PAIRING_REQUIRED", message: "Approve the pending session in Lomi Settings." },
    },
  }),
].join("\n");

test("check --report x.html: conformance.html's style and colours, the verdict first, each call's arguments whole", () => {
  const history = parseHistory(HISTORY);
  const page = htmlReport("traffic.jsonl", history, checkHistory(history));
  const conformance = conformanceHtml(
    notRunSummary("x", { broker: { adapter: "t", serverInfo: undefined }, seed: 1, level: "must", tags: undefined, startedAt: at, requireAll: false }, "stdio"),
  );
  for (const html of [page, conformance]) assert.ok(html.includes(BASE_STYLE), "the pages share their base style");
  const banner = page.indexOf('<div class="banner"');
  assert.ok(banner > 0 && banner < page.indexOf("<h2>"), "the verdict before any section");
  assert.ok(page.slice(banner, page.indexOf("</div>", banner)).includes(`background:${VERDICT_COLOUR.pass}`), "no violation: the pass colour");
  const args = escapeHtml(JSON.stringify({ workspaceId: "ws-alpha", path: "scripts/test.cmd", content }));
  assert.ok(args.length > 3_000);
  assert.ok(page.includes(`<code>lomi_file_write ${args}</code>`), "the call's arguments whole, not cut");
});
