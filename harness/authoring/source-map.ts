import { readFileSync } from "node:fs";
import { z } from "zod";
import { kitPath } from "../../protocol/kit-root.js";
import type { RulesFile } from "../rules.js";

export const SOURCE_MAP_FILE = "docs/source-map.json";

const sourceMapSchema = z.strictObject({
  $comment: z.string().optional(),
  covered: z.array(z.strictObject({ sentence: z.string().min(1), rules: z.array(z.string()).min(1), why: z.string().min(1) })),
  informative: z.array(z.strictObject({ sentence: z.string().min(1), reason: z.string().min(1) })),
  /**
   * The sentences that address the agent and no agent rule quotes: the agent rules that judge them
   * from traffic, or none, with why traffic alone cannot show it (docs/agents.md). The broker's
   * placement of the same sentence stands apart, above.
   */
  agent: z.array(z.strictObject({ sentence: z.string().min(1), rules: z.array(z.string()), why: z.string().min(1) })).optional(),
});
export type SourceMap = z.infer<typeof sourceMapSchema>;

export const loadSourceMap = (file = kitPath(SOURCE_MAP_FILE)): SourceMap => sourceMapSchema.parse(JSON.parse(readFileSync(file, "utf8")));

/**
 * The source document as the units a rule can cite: each sentence of its prose, each row of its
 * tables (the header row aside), with headings and example JSON left out. A table row keeps its tab.
 */
export function sourceUnits(source: string): string[] {
  const units: string[] = [];
  let inJson = false;
  let inTable = false;
  for (const raw of source.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("{")) inJson = true;
    if (inJson) {
      if (line.startsWith("}")) inJson = false;
      continue;
    }
    if (line === "") {
      inTable = false;
      continue;
    }
    if (line.includes("\t")) {
      // A table's first row names its columns.
      if (inTable) units.push(line);
      inTable = true;
      continue;
    }
    // A heading is a line with no sentence in it.
    if (!/[.:]$/.test(line) && !/\. /.test(line)) continue;
    units.push(
      ...line
        .replace(/^\d+\.\s+/, "")
        .split(/(?<=\.)\s+(?=[A-Z])/)
        .map((s) => s.trim()),
    );
  }
  return units;
}

export interface SourceRow {
  sentence: string;
  /** quoted: rules whose source is (in) this sentence; covered: rules the map says hold it; informative: binds no broker. */
  how: "quoted" | "covered" | "informative" | "unmapped";
  rules: string[];
  why: string | undefined;
  /** For a sentence that addresses the agent: the agent rules that quote it, or cover it, or none (not judged from traffic), and why. */
  agent?: { how: "quoted" | "covered" | "not judged"; rules: string[]; why: string | undefined };
}

const quotes = (sentence: string, source: string) => sentence.includes(source) || source.includes(sentence);

/** How a sentence stands for the agent: quoted by an agent rule, or placed in the map's agent section, or not addressed to the agent (undefined). */
function agentPlacement(sentence: string, rules: RulesFile, map: SourceMap): SourceRow["agent"] {
  const quoting = (rules.agent?.rules ?? []).filter((r) => quotes(sentence, r.source)).map((r) => r.id);
  if (quoting.length > 0) return { how: "quoted", rules: quoting, why: undefined };
  const entry = map.agent?.find((a) => a.sentence === sentence);
  return entry && { how: entry.rules.length > 0 ? "covered" : "not judged", rules: entry.rules, why: entry.why };
}

/** Each unit of the source with the rules that judge it, or the reason none does. */
export function mapSource(units: readonly string[], rules: RulesFile, map: SourceMap): SourceRow[] {
  return units.map((sentence): SourceRow => {
    const agent = agentPlacement(sentence, rules, map);
    const row = (broker: Omit<SourceRow, "sentence" | "agent">): SourceRow => ({ sentence, ...broker, ...(agent ? { agent } : {}) });
    const quoting = rules.rules.filter((r) => quotes(sentence, r.source)).map((r) => r.id);
    if (quoting.length > 0) return row({ how: "quoted", rules: quoting, why: undefined });
    const covered = map.covered.find((c) => c.sentence === sentence);
    if (covered) return row({ how: "covered", rules: covered.rules, why: covered.why });
    const informative = map.informative.find((c) => c.sentence === sentence);
    if (informative) return row({ how: "informative", rules: [], why: informative.reason });
    return row({ how: "unmapped", rules: [], why: undefined });
  });
}

/** A problem of the map, about one sentence, found in the source (a sentence nobody placed) or in the map (an entry). */
export interface SourceMapProblem {
  in: "source" | "map";
  sentence: string;
  problem: string;
}

/** What is wrong with the map: a sentence of the source nobody placed, an entry that is not a sentence of the source (or needs none), a rule that does not exist. */
export function sourceMapProblems(units: readonly string[], rules: RulesFile, map: SourceMap): SourceMapProblem[] {
  const rows = mapSource(units, rules, map);
  const known = new Set(rules.rules.map((r) => r.id));
  const quoted = new Set(rows.filter((r) => r.how === "quoted").map((r) => r.sentence));
  const entries = [
    ...map.covered.map((c) => ({ sentence: c.sentence, rules: c.rules })),
    ...map.informative.map((c) => ({ sentence: c.sentence, rules: [] as string[] })),
  ];
  const inMap = (sentence: string, problem: string): SourceMapProblem => ({ in: "map", sentence, problem });
  const agentRules = new Set((rules.agent?.rules ?? []).map((r) => r.id));
  const agentQuoted = new Set(rows.filter((r) => r.agent?.how === "quoted").map((r) => r.sentence));
  const agentProblems = (map.agent ?? []).flatMap((a) => [
    ...(units.includes(a.sentence) ? [] : [inMap(a.sentence, `"${a.sentence}" (agent) is not a sentence of the source`)]),
    ...(agentQuoted.has(a.sentence) ? [inMap(a.sentence, `"${a.sentence}" is quoted by an agent rule already: drop its agent entry`)] : []),
    ...a.rules.filter((id) => !agentRules.has(id)).map((id) => inMap(a.sentence, `${id}, named for "${a.sentence}" (agent), is not an agent rule`)),
  ]);
  return [
    ...agentProblems,
    ...rows
      .filter((r) => r.how === "unmapped")
      .map((r): SourceMapProblem => ({
        in: "source",
        sentence: r.sentence,
        problem: `the sentence "${r.sentence}" is cited by no rule: write a rule for it, or add it to ${SOURCE_MAP_FILE} as covered (by which rules) or informative (why it binds no broker)`,
      })),
    ...entries.filter((e) => !units.includes(e.sentence)).map((e) => inMap(e.sentence, `"${e.sentence}" is not a sentence of the source`)),
    ...entries.filter((e) => quoted.has(e.sentence)).map((e) => inMap(e.sentence, `"${e.sentence}" is quoted by a rule already: drop the entry`)),
    ...entries.flatMap((e) => e.rules.filter((id) => !known.has(id)).map((id) => inMap(e.sentence, `${id}, named for "${e.sentence}", is not a rule`))),
  ];
}
