// The bench report as a table: plain text for the terminal, Markdown for the README.
import type { BenchReport, Figure } from "./report.js";

/** A number in its unit, with the precision the unit deserves (rates as integers, times to 0.1). */
export function formatValue(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 || unit === "/s" || unit === "MB" ? 0 : value >= 10 ? 1 : 2;
  return `${value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${unit}`;
}

const HEADER = ["figure", "median", "min", "max", "baseline (median)", "ratio", "goal", "met?"];

function cells(f: Figure): string[] {
  return [
    f.label,
    formatValue(f.figure.median, f.unit),
    formatValue(f.figure.min, f.unit),
    formatValue(f.figure.max, f.unit),
    f.baseline ? `${f.baseline.label}: ${formatValue(f.baseline.summary.median, f.unit)}` : "—",
    f.ratio === null ? "—" : `${f.ratio.toFixed(f.ratio >= 10 ? 1 : 2)}×`,
    f.goal?.text ?? "—",
    f.met === null ? "—" : f.met ? "yes" : "no",
  ];
}

/** Machine, date and run count in one line: numbers mean little without them. */
export function provenance(report: BenchReport): string {
  const m = report.machine;
  const runs = new Set(report.figures.map((f) => f.figure.runs));
  const busy = (m.loadAverage[0] ?? 0) > m.cores ? " (busier than its cores: absolute numbers are noise, compare ratios)" : "";
  return `${report.date} on ${m.cpu} (${m.cores} cores, ${m.platform}), Node ${m.node}, load average ${m.loadAverage.join(" ")}${busy}; ${[...runs].join("/")} runs per figure${report.quick ? " (--quick)" : ""}`;
}

function skippedLines(report: BenchReport): string[] {
  return report.skipped.map((s) => `skipped ${s.id}: ${s.why}`);
}

export function textTable(report: BenchReport): string {
  const rows = [HEADER, ...report.figures.map(cells)];
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  const notes = report.figures.filter((f) => f.note).map((f) => `note on ${f.label}: ${f.note}`);
  return [provenance(report), line(HEADER), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line), ...notes, ...skippedLines(report)].join(
    "\n",
  );
}

export function markdownTable(report: BenchReport): string {
  const row = (r: string[]) => `| ${r.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
  const notes = report.figures.filter((f) => f.note).map((f) => `- ${f.label}: ${f.note}`);
  const skipped = skippedLines(report).map((s) => `- ${s}`);
  return [
    `Measured ${provenance(report)}.`,
    "",
    row(HEADER),
    row(HEADER.map(() => "---")),
    ...report.figures.map((f) => row(cells(f))),
    ...(notes.length + skipped.length ? ["", ...notes, ...skipped] : []),
  ].join("\n");
}
