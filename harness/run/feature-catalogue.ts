import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { AstBuilder, compile, GherkinClassicTokenMatcher, Parser } from "@cucumber/gherkin";
import { IdGenerator, type FeatureChild, type GherkinDocument, type RuleChild } from "@cucumber/messages";
import { kitPath } from "../../protocol/kit-root.js";

/** The kit's features; LOMI_FEATURES_DIR points a run at another folder (a scenario writer's draft, the kit's own tests). */
export const FEATURES_DIR = process.env.LOMI_FEATURES_DIR ? path.resolve(process.env.LOMI_FEATURES_DIR) : kitPath("features");

export interface ScenarioEntry {
  uri: string;
  name: string;
  /** Tags including those inherited from the feature and rule. */
  tags: string[];
  /** The line cucumber selects it by (`uri:line`): its Scenario line, or its Examples row. */
  line: number;
  /** How many lines its feature file has: a `uri:LINE` past them names no scenario. */
  fileLines?: number;
}

/** A scenario's name within the suite, stable when lines move: the same key its seed derives from. */
export const scenarioKey = (s: { uri: string; name: string }) => `${s.uri}:${s.name}`;

/** Every AST node's line by id: a pickle names its scenario, and its Examples row, by id. */
function nodeLines(children: ReadonlyArray<FeatureChild | RuleChild>, lines: Map<string, number>): Map<string, number> {
  for (const child of children) {
    const s = child.scenario;
    if (s) {
      lines.set(s.id, s.location.line);
      for (const ex of s.examples) for (const row of ex.tableBody) lines.set(row.id, row.location.line);
    }
    if ("rule" in child && child.rule) nodeLines(child.rule.children, lines);
  }
  return lines;
}

export function featureFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? featureFiles(full) : e.name.endsWith(".feature") ? [full] : [];
  });
}

const parsed = new Map<string, GherkinDocument>();

/**
 * A feature file's Gherkin document (throws where it is not Gherkin). A run reads the suite for its
 * tag check, its catalogue and its lint: each text is parsed once.
 */
export function parsedFeature(file: string): GherkinDocument {
  const text = readFileSync(file, "utf8");
  const key = `${file}\0${text}`;
  let document = parsed.get(key);
  if (!document) parsed.set(key, (document = new Parser(new AstBuilder(IdGenerator.uuid()), new GherkinClassicTokenMatcher()).parse(text)));
  return document;
}

/** Every scenario of the suite's feature files, compiled as cucumber would (outlines expanded). */
export function scenarioCatalogue(dir: string = FEATURES_DIR): ScenarioEntry[] {
  const newId = IdGenerator.uuid();
  return featureFiles(dir).flatMap((file) => {
    const uri = path.relative(path.dirname(dir), file);
    const document = parsedFeature(file);
    const lines = nodeLines(document.feature?.children ?? [], new Map());
    const fileLines = readFileSync(file, "utf8").replace(/\n$/, "").split("\n").length;
    return compile(document, uri, newId).map((p) => ({
      uri,
      name: p.name,
      tags: p.tags.map((t) => t.name),
      line: lines.get(p.astNodeIds.at(-1) ?? "") ?? 0,
      fileLines,
    }));
  });
}
