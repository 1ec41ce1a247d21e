/**
 * What every HTML page the kit writes shares (conformance.html, `check --report x.html`): escaping,
 * the verdict colours and the base style, so a reader who knows one page reads the other.
 */

export const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A verdict's colour, everywhere it is shown: a cell, a chip, a banner. */
export const VERDICT_COLOUR = {
  pass: "#1a7f37",
  fail: "#cf222e",
  baselined: "#bf8700",
  flaky: "#fb8f44",
  "not-applicable": "#6e7781",
  uncovered: "#8250df",
  "not-selected": "#d0d7de",
  "not-run": "#afb8c1",
} as const;

/** A rule ID as a coloured chip, linking where `href` says. */
export const chip = (id: string, colour: string, href?: string) =>
  `<${href ? `a href="${escapeHtml(href)}"` : "span"} class="chip" style="background:${colour}">${escapeHtml(id)}</${href ? "a" : "span"}>`;

export const BASE_STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1f2328;max-width:1200px}
h1{font-size:22px;margin:0 0 4px} h2{font-size:16px;margin:28px 0 8px;border-bottom:1px solid #d0d7de}
.meta{color:#57606a;margin-bottom:12px}
.chip{color:#fff;border-radius:4px;padding:1px 6px;font:600 12px monospace;text-decoration:none}
.dot{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:6px}
summary{cursor:pointer}
blockquote{margin:8px 0;padding-left:10px;border-left:3px solid #d0d7de;color:#57606a}
pre{background:#f6f8fa;padding:8px;overflow:auto;max-height:320px;white-space:pre-wrap;word-break:break-word}
pre.found{background:#fff8f7;border-left:3px solid ${VERDICT_COLOUR.fail};max-height:none} .pointer{margin:4px 0;color:#57606a} .pointer::before{content:"→ "}
.reason{color:#57606a} .glyph{font-weight:700;margin-right:4px}
.banner{padding:12px 16px;border-radius:6px;color:#fff;margin:12px 0;font-size:16px} .banner code{display:block;margin-top:6px;background:rgba(0,0,0,.25);padding:6px;border-radius:4px;white-space:pre-wrap}`;
