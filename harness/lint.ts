import { readFileSync } from "node:fs";
import path from "node:path";
import { AstBuilder, GherkinClassicTokenMatcher, Parser } from "@cucumber/gherkin";
import { IdGenerator } from "@cucumber/messages";
import { kitPath } from "../protocol/kit-root.js";
import { featureFiles, FEATURES_DIR } from "./feature-catalogue.js";
import { distance } from "./option-suggestion.js";
import { loadRules, RULES_FILE, type RulesFile } from "./rules.js";
import { stepLibrary } from "./step-vocabulary.js";

/** One authoring mistake, where it is written. */
export interface LintProblem {
  file: string;
  line: number;
  problem: string;
}

/** A tag shaped like a rule ID (the suite's other tags are lower-case words: @slow, @needs-crash). */
const RULE_LIKE = /^@([A-Z]+-\d+)$/;



/** The rule an unknown ID most likely meant: one of its family with the nearest number ("EVT-40" → "EVT-04"), else the nearest ID. */
function nearestRule(id: string, known: readonly string[]): string | undefined {
  const [family, number = ""] = id.split("-");
  const kin = known.filter((k) => k.startsWith(`${family}-`));
  if (kin.length > 0) return kin.map((k) => ({ k, d: distance(number, k.split("-")[1] ?? "") })).sort((x, y) => x.d - y.d)[0]!.k;
  return nearest(id, known, () => 2);
}

/** The known word nearest to `given`, when it is near enough to be what was meant. */
function nearest(given: string, known: readonly string[], within = (k: string) => Math.max(2, Math.floor(k.length / 3))): string | undefined {
  const [best] = known.map((k) => ({ k, d: distance(given, k) })).sort((x, y) => x.d - y.d);
  return best && best.d <= within(best.k) ? best.k : undefined;
}

/** A step pattern as a person would type it: "{agent} calls {tool}" → "the agent calls lomi_x", close enough to rank by. */
const typed = (pattern: string) => pattern.replace(/\{agent\}/g, "the agent").replace(/\{[a-z]+\}/g, "x");

/**
 * The sentence of the source document nearest to a quoted one, and how they differ: an author who
 * paraphrased the source sees the real sentence.
 */
export function nearestSentence(quote: string, source: string): string {
  const sentences = source.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter((s) => s.length > 0);
  const [best] = sentences.map((s) => ({ s, d: distance(quote, s) })).sort((x, y) => x.d - y.d);
  return best ? best.s : "";
}

/** Steps, tags and rule citations of the feature files, all problems at once, with file and line. */
export async function lintFeatures(featuresDir: string, rules: RulesFile): Promise<LintProblem[]> {
  const library = await stepLibrary(featuresDir);
  const patterns = library.stepDefinitions.map((d) => (typeof d.pattern === "string" ? d.pattern : d.pattern.source));
  const known = new Set(rules.rules.map((r) => r.id));
  const problems: LintProblem[] = [];
  for (const file of featureFiles(featuresDir)) {
    const shown = path.relative(process.cwd(), file) || file;
    let document;
    try {
      document = new Parser(new AstBuilder(IdGenerator.uuid()), new GherkinClassicTokenMatcher()).parse(readFileSync(file, "utf8"));
    } catch (error) {
      problems.push({ file: shown, line: Number(/\((\d+):\d+\)/.exec((error as Error).message)?.[1] ?? 1), problem: `not Gherkin: ${(error as Error).message.split("\n")[0]}` });
      continue;
    }
    const feature = document.feature;
    if (!feature) continue;
    const featureRules = feature.tags.filter((t) => RULE_LIKE.test(t.name));
    for (const child of feature.children) {
      const steps = [...(child.background?.steps ?? []), ...(child.scenario?.steps ?? [])];
      for (const step of steps) {
        // An outline's steps hold <placeholders>: they match once filled, so they are not judged here.
        if (/<[^>]+>/.test(step.text)) continue;
        const matching = library.stepDefinitions.filter((d) => d.expression.match(step.text) !== null).length;
        if (matching === 1) continue;
        if (matching > 1) {
          problems.push({ file: shown, line: step.location.line, problem: `step "${step.text}" matches ${matching} step definitions (ambiguous)` });
          continue;
        }
        const guess = nearest(typed(step.text), patterns.map(typed), (k) => Math.max(4, Math.floor(k.length / 2)));
        const meant = guess === undefined ? undefined : patterns[patterns.map(typed).indexOf(guess)];
        problems.push({ file: shown, line: step.location.line, problem: `undefined step "${step.text}"${meant ? `; did you mean "${meant}"?` : "; lomi-conformance steps lists them"}` });
      }
      const scenario = child.scenario;
      if (!scenario) continue;
      const cited = [...featureRules, ...scenario.tags.filter((t) => RULE_LIKE.test(t.name))];
      for (const tag of cited) {
        const id = tag.name.slice(1);
        if (known.has(id)) continue;
        const meant = nearestRule(id, [...known]);
        problems.push({ file: shown, line: tag.location.line, problem: `${tag.name} is not a rule of docs/rules.json${meant ? `; did you mean @${meant}?` : ""}` });
      }
      if (cited.length === 0) problems.push({ file: shown, line: scenario.location.line, problem: `scenario "${scenario.name}" cites no rule: tag it with the rule IDs it checks` });
    }
  }
  return problems;
}

/** Every rule's `source` stands verbatim in the source document; one that does not is named with the nearest real sentence. */
export function lintRuleSources(rules: RulesFile, source: string, rulesText: string, rulesFile: string): LintProblem[] {
  const lines = rulesText.split("\n");
  return rules.rules
    .filter((r) => !source.includes(r.source))
    .map((r) => ({
      file: rulesFile,
      line: lines.findIndex((l) => l.includes(`"id": "${r.id}"`)) + 1 || 1,
      problem: `${r.id}'s source is not in ${rules.source} as written: "${r.source}"; the nearest sentence there is "${nearestSentence(r.source, source)}"`,
    }));
}

/** `lomi-conformance lint`: the features, the rules' sources and docs/spec.md, with no broker, every problem at once. */
export async function lintSuite(featuresDir: string = FEATURES_DIR): Promise<LintProblem[]> {
  const rules = loadRules();
  const rulesText = readFileSync(RULES_FILE, "utf8");
  const shownRules = path.relative(process.cwd(), RULES_FILE) || RULES_FILE;
  const problems = [...(await lintFeatures(featuresDir, rules)), ...lintRuleSources(rules, readFileSync(kitPath(rules.source), "utf8"), rulesText, shownRules)];
  const { renderSpec, SPEC_FILE } = await import("./spec-doc.js");
  if (readFileSync(SPEC_FILE, "utf8") !== renderSpec(rules)) problems.push({ file: path.relative(process.cwd(), SPEC_FILE) || SPEC_FILE, line: 1, problem: "docs/spec.md is not rendered from the current rules and decisions: run npm run spec" });
  return problems;
}
