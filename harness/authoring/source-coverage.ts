import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { kitPath } from "../../protocol/kit-root.js";
import { scenarioCatalogue } from "../run/feature-catalogue.js";
import { loadRules, RULE_TAG, type RulesFile } from "../rules.js";
import { loadSourceMap, mapSource, type SourceRow, sourceUnits } from "./source-map.js";

/** What a run said of a rule, read from its conformance.json (only the fields coverage shows). */
const reportedRules = z.object({
  startedAt: z.string(),
  broker: z.object({ adapter: z.string() }),
  rules: z.array(z.object({ id: z.string(), verdict: z.string(), reason: z.string().optional() })),
});

export interface CoverageRow extends SourceRow {
  /** Per rule: its level, how many scenarios cite it, and the verdict of the run read (when one was). */
  judged: Array<{ id: string; level: string; scenarios: number; verdict: string | undefined }>;
}

export interface Coverage {
  source: string;
  /** Each agent rule's level, for the sentences that address the agent. */
  agentLevels: Record<string, string>;
  /** The run whose verdicts are shown, if a conformance.json was found. */
  run: { file: string; startedAt: string; broker: string } | undefined;
  rows: CoverageRow[];
}

type ReportedRun = z.infer<typeof reportedRules>;
export type ReportedRule = ReportedRun["rules"][number];

/** The run a conformance.json in `reports` holds, if there is one to read. */
export function readReportedRun(reports: string): { run: ReportedRun; file: string } | undefined {
  const file = path.join(reports, "conformance.json");
  if (!existsSync(file)) return undefined;
  const parsed = reportedRules.safeParse(JSON.parse(readFileSync(file, "utf8")));
  return parsed.success ? { run: parsed.data, file } : undefined;
}

/** How many scenarios of the suite cite each rule (a run's summary has it as scenariosInSuite). */
function scenariosPerRule(): Record<string, number> {
  const cites: Record<string, number> = {};
  for (const s of scenarioCatalogue())
    for (const t of s.tags) {
      const id = RULE_TAG.exec(t)?.[1];
      if (id) cites[id] = (cites[id] ?? 0) + 1;
    }
  return cites;
}

/**
 * sentence → rules → scenarios → verdicts, for the whole source, with the verdicts of `reported` when
 * given; `inSuite` counts each rule's scenarios (a run passes its own, so the features are not read again).
 */
export function sourceCoverage(
  reported: { run: ReportedRun; file: string } | undefined,
  inSuite: Readonly<Record<string, number>> = scenariosPerRule(),
  rules: RulesFile = loadRules(),
): Coverage {
  const verdicts = new Map((reported?.run.rules ?? []).map((r) => [r.id, r.verdict]));
  const levels = new Map(rules.rules.map((r) => [r.id, r.level]));
  const rows = mapSource(sourceUnits(readFileSync(kitPath(rules.source), "utf8")), rules, loadSourceMap()).map((row) => ({
    ...row,
    judged: row.rules.map((id) => ({ id, level: levels.get(id) ?? "?", scenarios: inSuite[id] ?? 0, verdict: verdicts.get(id) })),
  }));
  return {
    source: rules.source,
    agentLevels: Object.fromEntries((rules.agent?.rules ?? []).map((r) => [r.id, r.level])),
    run: reported && { file: reported.file, startedAt: reported.run.startedAt, broker: reported.run.broker.adapter },
    rows,
  };
}

const MARK: Record<SourceRow["how"], string> = { quoted: "quoted by", covered: "covered by", informative: "informative", unmapped: "UNCOVERED" };

/** The summary line: how many sentences each way, and how many of the judged ones have a failing rule. */
export function coverageSummary(c: Coverage): string {
  const count = (how: SourceRow["how"]) => c.rows.filter((r) => r.how === how).length;
  const failing = c.rows.filter((r) => r.judged.some((j) => j.verdict === "fail")).length;
  const agent = (how: NonNullable<SourceRow["agent"]>["how"]) => c.rows.filter((r) => r.agent?.how === how).length;
  const toAgent = c.rows.filter((r) => r.agent).length;
  return `${c.rows.length} sentences of ${c.source}: ${count("quoted")} quoted by a rule, ${count("covered")} covered by rules that quote another, ${count("informative")} informative, ${count("unmapped")} uncovered${c.run ? `; ${failing} with a failing rule in the run of ${c.run.startedAt} (${c.run.broker})` : ""}; ${toAgent} address the agent: ${agent("quoted")} quoted by an agent rule, ${agent("covered")} covered by agent rules, ${agent("not judged")} not judged from traffic`;
}

/** `lomi-conformance coverage`: each sentence, then its rules with their scenarios and verdicts, or why none judges it. */
export function coverageText(c: Coverage): string {
  const out = [
    coverageSummary(c),
    c.run ? `verdicts from ${c.run.file}` : "no conformance.json read: run the suite first, or pass --reports DIR, to see verdicts",
    "",
  ];
  for (const row of c.rows) {
    out.push(`"${row.sentence.replace(/\t/g, " — ")}"`);
    if (row.how === "informative" || row.how === "unmapped") out.push(`    ${MARK[row.how]}${row.why ? `: ${row.why}` : ""}`);
    else {
      out.push(
        `    ${MARK[row.how]} ${row.judged.map((j) => `${j.id} (${j.level}, ${j.scenarios} scenario${j.scenarios === 1 ? "" : "s"}${j.verdict ? `, ${j.verdict}` : ""})`).join(", ")}`,
      );
      if (row.why) out.push(`    ${row.why}`);
    }
    // The agent's side of the sentence, judged from recorded traffic by check and record (docs/agents.md).
    if (row.agent?.how === "not judged") out.push(`    agent: not judged from traffic: ${row.agent.why}`);
    else if (row.agent)
      out.push(
        `    agent: ${row.agent.how} by ${row.agent.rules.map((id) => `${id} (${c.agentLevels[id] ?? "?"}, from traffic)`).join(", ")}${row.agent.why ? `: ${row.agent.why}` : ""}`,
      );
  }
  return `${out.join("\n")}\n`;
}
