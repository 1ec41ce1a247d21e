import { LEVELS } from "./rule-verdicts.js";
import type { RunSummary } from "./run-summary.js";

const COLOURS = { conformant: "#4c1", "conformant-with-baseline": "#dfb317", "not-conformant": "#e05d44", "not-run": "#9f9f9f" } as const;

/** Text width in Verdana 11px, near enough for a badge (shields.io's flat style). */
const width = (text: string) => Math.round(text.length * 6.6) + 12;

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * Counted as the headline counts: the rules of the run's level it reached; passing of those. A
 * conformant run's badge and headline then give the same two numbers ("108/116", "108 of 116").
 */
export function badgeMessage(run: RunSummary): string {
  if (run.verdict === "not-run") return "not run";
  const atLevel = run.rules.filter((r) => LEVELS[run.level].includes(r.level) && r.verdict !== "not-selected");
  const passing = atLevel.filter((r) => r.verdict === "pass").length;
  const judged = atLevel.length;
  const over = ` over ${run.profile.name}`;
  if (run.verdict === "conformant") return `conformant${over} ${passing}/${judged}`;
  if (run.verdict === "conformant-with-baseline") return `${passing}/${judged}${over}, ${run.rules.filter((r) => r.verdict === "baselined").length} baselined`;
  return `not conformant${over} ${passing}/${judged}`;
}

/**
 * What made the claim, after it in the badge's title: the kit and its rules, and the digest of the
 * evidence `lomi-conformance verify` checks the reports against.
 */
const madeBy = (run: RunSummary) =>
  run.provenance
    ? ` (${run.provenance.kit.name} ${run.provenance.kit.version}, rules ${run.provenance.rules.digest}${run.evidence ? `, evidence ${run.evidence.digest}` : ""})`
    : "";

/** An SVG badge: "lomi conformance | conformant 40/40", coloured by the run's verdict; its title names the kit, the rules and the evidence. */
export function badgeSvg(run: RunSummary): string {
  const label = "lomi conformance";
  const message = badgeMessage(run);
  const [lw, mw] = [width(label), width(message)];
  const colour = COLOURS[run.verdict];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + mw}" height="20" role="img" aria-label="${escape(`${label}: ${message}`)}">
<title>${escape(`${label}: ${message}${madeBy(run)}`)}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${lw + mw}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${colour}"/><rect width="${lw + mw}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="${lw / 2}" y="14">${escape(label)}</text><text x="${lw + mw / 2}" y="14">${escape(message)}</text>
</g>
</svg>
`;
}
