// npm run bench [-- --quick] [--suite] [--readme] [--only ID,...] [--runs N]: every figure of issue 11,
// each a median of several runs beside a baseline measured in the same run; writes reports/bench.json
// and prints the table. Numbers on a shared machine are noise; the ratios are what to compare.
import { parseArgs } from "node:util";
import { admissionFigures } from "./figures/admissions.js";
import { brokerRssFigure, rssUnavailable } from "./figures/broker-rss.js";
import type { FigureContext } from "./figures/figure-context.js";
import { reopenFigures } from "./figures/reopen.js";
import { roundTripFigure } from "./figures/round-trip.js";
import { suiteFigures } from "./figures/suite.js";
import { updateReadme } from "./readme-section.js";
import { BENCH_JSON, machine, writeBenchReport, type BenchReport, type Figure } from "./report.js";
import { textTable } from "./table.js";

const USAGE = "usage: npm run bench -- [--quick] [--suite [--suite-runs N]] [--readme] [--only admissions,operation-get,reopen,rss,suite] [--runs N]";

interface Section {
  id: string;
  title: string;
  measure: (ctx: FigureContext) => Promise<Figure | Figure[]>;
  /** Runs of this section when not the common count. */
  runs?: (options: { runs: number; suiteRuns: number }) => number;
  /** Why this section does not run by default, or on this machine; undefined when it runs. */
  skip?: (options: { suite: boolean }) => string | undefined;
}

const SECTIONS: Section[] = [
  { id: "admissions", title: "durable admissions, 1 and 32 clients, vs raw SQLite commits", measure: admissionFigures },
  { id: "operation-get", title: "lomi_operation_get vs an echo tool", measure: roundTripFigure },
  { id: "reopen", title: "reopen + outcome_unknown at 1,024 and 4,096 receipts", measure: reopenFigures },
  { id: "rss", title: "broker process RSS with 32 clients", measure: brokerRssFigure, skip: rssUnavailable },
  {
    id: "suite",
    title: "whole suite in-process vs stdio",
    measure: suiteFigures,
    runs: ({ suiteRuns }) => suiteRuns,
    skip: ({ suite }) => (suite ? undefined : "minutes per run (two whole suites each): opt in with `npm run bench -- --suite`"),
  },
];

function fail(message: string): never {
  process.stderr.write(`bench: ${message}\n${USAGE}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      suite: { type: "boolean", default: false },
      readme: { type: "boolean", default: false },
      "suite-runs": { type: "string" },
      only: { type: "string" },
      runs: { type: "string" },
    },
    strict: true,
  }));
} catch (error) {
  fail((error as Error).message);
}
const runs = values.runs === undefined ? (values.quick ? 3 : 5) : Number(values.runs);
const suiteRuns = values["suite-runs"] === undefined ? runs : Number(values["suite-runs"]);
if (!Number.isInteger(runs) || runs < 1) fail(`--runs must be a positive integer, not ${values.runs}`);
if (!Number.isInteger(suiteRuns) || suiteRuns < 1) fail(`--suite-runs must be a positive integer, not ${values["suite-runs"]}`);
const only = values.only?.split(",").map((s) => s.trim());
for (const id of only ?? []) if (!SECTIONS.some((s) => s.id === id)) fail(`--only: no section ${id}`);

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const report: BenchReport = { date: new Date().toISOString(), machine: machine(), quick: values.quick, figures: [], skipped: [] };
process.stdout.write(
  `bench: ${runs} runs per figure${values.quick ? " (--quick)" : ""}; ${report.machine.cpu}, ${report.machine.cores} cores, Node ${report.machine.node}, load average ${report.machine.loadAverage.join(" ")}\n`,
);
for (const [i, section] of SECTIONS.entries()) {
  const tag = `[${i + 1}/${SECTIONS.length}] ${section.title}`;
  const why = only && !only.includes(section.id) ? "not in --only" : section.skip?.({ suite: values.suite });
  if (why) {
    report.skipped.push({ id: section.id, why });
    process.stdout.write(`${tag}: skipped (${why})\n`);
    continue;
  }
  process.stdout.write(`${tag}\n`);
  const measured = await section.measure({
    runs: section.runs?.({ runs, suiteRuns }) ?? runs,
    quick: values.quick,
    progress: (line) => process.stdout.write(`    ${line} (${elapsed()})\n`),
  });
  const figures = Array.isArray(measured) ? measured : [measured];
  report.figures.push(...figures);
  for (const f of figures)
    process.stdout.write(`  ${f.label}: median ${f.figure.median.toFixed(1)} ${f.unit}${f.ratio === null ? "" : `, ${f.ratio.toFixed(2)}× baseline`}\n`);
}
writeBenchReport(report);
process.stdout.write(`\n${textTable(report)}\n\nwritten: ${BENCH_JSON} (${elapsed()})\n`);
if (values.readme) {
  updateReadme(report);
  process.stdout.write("README.md: Benchmarks section rewritten\n");
}
