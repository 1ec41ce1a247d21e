import assert from "node:assert/strict";
import { test } from "node:test";
import { replaceSection, SECTION_END, SECTION_START } from "../../bench/readme-section.js";
import { benchReportSchema, figure, judge, type BenchReport } from "../../bench/report.js";
import { summarize } from "../../bench/summary.js";
import { formatValue, markdownTable, textTable } from "../../bench/table.js";

test("summarize: the median of an odd count is the middle sample, of an even count the mean of the two middle ones", () => {
  assert.deepEqual(summarize([30, 10, 20]), { median: 20, min: 10, max: 30, runs: 3 });
  assert.deepEqual(summarize([4, 1, 3, 2]), { median: 2.5, min: 1, max: 4, runs: 4 });
  assert.deepEqual(summarize([7]), { median: 7, min: 7, max: 7, runs: 1 });
  assert.throws(() => summarize([]), RangeError);
});

const report: BenchReport = {
  date: "2026-12-03T09:00:00.000Z",
  machine: { cpu: "Test CPU", cores: 2, node: "v20.20.0", platform: "linux 6.1", loadAverage: [1.5, 1, 0.5] },
  quick: false,
  figures: [
    figure({
      id: "operation-get",
      label: "lomi_operation_get round trip",
      unit: "µs",
      figure: summarize([300, 310, 290, 305, 295]),
      baseline: { label: "echo | same transport", summary: summarize([100, 100, 100, 100, 100]) },
      goal: { on: "ratio", atMost: 1.5, text: "≤ 1.5× echo" },
    }),
    figure({
      id: "reopen-4096",
      label: "reopen, 4,096 receipts",
      unit: "ms",
      figure: summarize([40, 45, 42, 41, 44]),
      goal: { on: "median", atMost: 50, text: "< 50 ms" },
      note: "includes one clock call",
    }),
  ],
  skipped: [{ id: "suite", why: "opt in with --suite" }],
};

test("a figure's ratio is its median over its baseline's median, and its goal is judged on the ratio or the median", () => {
  const [roundTrip, reopen] = report.figures;
  assert.equal(roundTrip!.ratio, 3);
  assert.equal(roundTrip!.met, false, "3× the echo misses ≤ 1.5×");
  assert.equal(reopen!.ratio, null);
  assert.equal(reopen!.met, true, "a median of 42 ms meets < 50 ms");
  assert.equal(judge({ on: "median", atMost: 50, text: "< 50 ms" }, 50.1, null), false);
  assert.equal(judge({ on: "ratio", atLeast: 0.7, text: "" }, 100, 0.05), false);
  assert.equal(judge({ on: "ratio", atMost: 1.5, text: "" }, 1, null), null, "a ratio goal without a baseline cannot be judged");
  assert.equal(figure({ id: "x", label: "x", unit: "ms", figure: summarize([1]) }).met, null);
});

test("the text table has a row per figure with median, min, max, baseline, ratio, goal and verdict, then notes and skips", () => {
  assert.equal(
    textTable(report),
    [
      "2026-12-03T09:00:00.000Z on Test CPU (2 cores, linux 6.1), Node v20.20.0, load average 1.5 1 0.5; 5 runs per figure",
      "figure                         median   min      max      baseline (median)              ratio  goal         met?",
      "-----------------------------  -------  -------  -------  -----------------------------  -----  -----------  ----",
      "lomi_operation_get round trip  300 µs   290 µs   310 µs   echo | same transport: 100 µs  3.00×  ≤ 1.5× echo  no",
      "reopen, 4,096 receipts         42.0 ms  40.0 ms  45.0 ms  —                              —      < 50 ms      yes",
      "note on reopen, 4,096 receipts: includes one clock call",
      "skipped suite: opt in with --suite",
    ].join("\n"),
  );
});

test("the Markdown table escapes pipes and carries the date and machine, and the README section is replaced between its markers only", () => {
  const md = markdownTable(report);
  assert.match(md, /^Measured 2026-12-03T09:00:00.000Z on Test CPU \(2 cores/);
  assert.match(md, /\| lomi_operation_get round trip \| 300 µs \| 290 µs \| 310 µs \| echo \\\| same transport: 100 µs \| 3\.00× \| ≤ 1\.5× echo \| no \|/);
  assert.match(md, /- skipped suite: opt in with --suite/);
  const readme = `# Kit\n\n## Benchmarks\n\n${SECTION_START}\nold table\n${SECTION_END}\n\n## Next\n`;
  assert.equal(replaceSection(readme, "new table"), `# Kit\n\n## Benchmarks\n\n${SECTION_START}\nnew table\n${SECTION_END}\n\n## Next\n`);
  assert.throws(() => replaceSection("# no markers\n", "x"), /markers/);
});

test("units get the precision they deserve, and the report round-trips through its schema", () => {
  assert.equal(formatValue(3373.4, "/s"), "3,373 /s");
  assert.equal(formatValue(6.126, "ms"), "6.13 ms");
  assert.equal(formatValue(34.04, "ms"), "34.0 ms");
  assert.equal(formatValue(489.6, "MB"), "490 MB");
  assert.deepEqual(benchReportSchema.parse(JSON.parse(JSON.stringify(report))), report);
  assert.throws(() => benchReportSchema.parse({ ...report, machine: { ...report.machine, cores: "two" } }));
});
