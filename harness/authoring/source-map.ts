import { readFileSync } from "node:fs";
import { z } from "zod";
import { kitPath } from "../../protocol/kit-root.js";
import type { RulesFile } from "../rules.js";

export const SOURCE_MAP_FILE = "docs/source-map.json";

const sourceMapSchema = z.strictObject({
  $comment: z.string().optional(),
  covered: z.array(z.strictObject({ sentence: z.string().min(1), rules: z.array(z.string()).min(1), why: z.string().min(1) })),
  informative: z.array(z.strictObject({ sentence: z.string().min(1), reason: z.string().min(1) })),
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
    units.push(...line.replace(/^\d+\.\s+/, "").split(/(?<=\.)\s+(?=[A-Z])/).map((s) => s.trim()));
  }
  return units;
}

export interface SourceRow {
  sentence: string;
  /** quoted: rules whose source is (in) this sentence; covered: rules the map says hold it; informative: binds no broker. */
  how: "quoted" | "covered" | "informative" | "unmapped";
  rules: string[];
  why: string | undefined;
}

/** Each unit of the source with the rules that judge it, or the reason none does. */
export function mapSource(units: readonly string[], rules: RulesFile, map: SourceMap): SourceRow[] {
  return units.map((sentence) => {
    const quoting = rules.rules.filter((r) => sentence.includes(r.source) || r.source.includes(sentence)).map((r) => r.id);
    if (quoting.length > 0) return { sentence, how: "quoted", rules: quoting, why: undefined };
    const covered = map.covered.find((c) => c.sentence === sentence);
    if (covered) return { sentence, how: "covered", rules: covered.rules, why: covered.why };
    const informative = map.informative.find((c) => c.sentence === sentence);
    if (informative) return { sentence, how: "informative", rules: [], why: informative.reason };
    return { sentence, how: "unmapped", rules: [], why: undefined };
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
  const entries = [...map.covered.map((c) => ({ sentence: c.sentence, rules: c.rules })), ...map.informative.map((c) => ({ sentence: c.sentence, rules: [] as string[] }))];
  const inMap = (sentence: string, problem: string): SourceMapProblem => ({ in: "map", sentence, problem });
  return [
    ...rows.filter((r) => r.how === "unmapped").map((r): SourceMapProblem => ({ in: "source", sentence: r.sentence, problem: `the sentence "${r.sentence}" is cited by no rule: write a rule for it, or add it to ${SOURCE_MAP_FILE} as covered (by which rules) or informative (why it binds no broker)` })),
    ...entries.filter((e) => !units.includes(e.sentence)).map((e) => inMap(e.sentence, `"${e.sentence}" is not a sentence of the source`)),
    ...entries.filter((e) => quoted.has(e.sentence)).map((e) => inMap(e.sentence, `"${e.sentence}" is quoted by a rule already: drop the entry`)),
    ...entries.flatMap((e) => e.rules.filter((id) => !known.has(id)).map((id) => inMap(e.sentence, `${id}, named for "${e.sentence}", is not a rule`))),
  ];
}
