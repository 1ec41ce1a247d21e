import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { kitPath } from "../../protocol/kit-root.js";
import { featureFiles, FEATURES_DIR, parsedFeature } from "../run/feature-catalogue.js";
import { distance } from "../text/option-suggestion.js";
import { loadRules, RULES_FILE, type RulesFile } from "../rules.js";
import { loadSourceMap, SOURCE_MAP_FILE, sourceMapProblems, sourceUnits } from "./source-map.js";
import { stepLibrary, type LoadedLibrary } from "./step-vocabulary.js";
import { generatedDocs } from "./spec-doc.js";
import { worldIds, type WorldIds } from "./world-doc.js";
import { messageOf } from "../../protocol/errors.js";

/** One authoring mistake, where it is written. */
export interface LintProblem {
  file: string;
  line: number;
  problem: string;
}

/** A tag shaped like a rule ID (the suite's other tags are lower-case words: @slow, @needs-crash). */
const RULE_LIKE = /^@([A-Z]+-\d+)$/;

/** The line of docs/rules.json where a rule is written, so a problem with it reads as file:line. */
const ruleLine = (rulesText: string, id: string) => rulesText.split("\n").findIndex((l) => l.includes(`"id": "${id}"`)) + 1 || 1;

/** The rule an unknown ID most likely meant: one of its family with the nearest number ("EVT-40" → "EVT-04"), else the nearest ID. */
function nearestRule(id: string, known: readonly string[]): string | undefined {
  const [family, number = ""] = id.split("-");
  const kin = known.filter((k) => k.startsWith(`${family}-`));
  const [closest] = kin.map((k) => ({ k, d: distance(number, k.split("-")[1] ?? "") })).sort((x, y) => x.d - y.d);
  return closest ? closest.k : nearest(id, known, () => 2);
}

/** The known word nearest to `given`, when it is near enough to be what was meant. */
function nearest(given: string, known: readonly string[], within = (k: string) => Math.max(2, Math.floor(k.length / 3))): string | undefined {
  const [best] = known.map((k) => ({ k, d: distance(given, k) })).sort((x, y) => x.d - y.d);
  return best && best.d <= within(best.k) ? best.k : undefined;
}

/** A step's words, a quoted string one word: "calls "a b" twice" → calls, "a b", twice. */
const wordsOf = (text: string) => text.match(/"[^"]*"|\S+/g) ?? [];

/**
 * How far a step as written is from a step pattern, in words: a `{parameter}` takes one to three
 * words for free (a value it refused is still the step meant), a misspelt word costs its share of
 * letters, a missing or extra word costs 1. "the reply is the error IDEMPOTENCY_CONFLICTS" is 0 from
 * "the reply is the error {code}", which a distance in letters ranks far away.
 */
export function stepDistance(text: string, pattern: string): number {
  const t = wordsOf(text);
  const p = wordsOf(pattern.replace(/\\/g, ""));
  const d: number[][] = Array.from({ length: p.length + 1 }, (_, i) => Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : Infinity)));
  for (let i = 1; i <= p.length; i++) {
    const word = p[i - 1]!;
    const free = /^\{[a-z]*\}$/.test(word);
    for (let j = 1; j <= t.length; j++) {
      const other = t[j - 1]!;
      const sub = free || word === other ? 0 : distance(word, other) / Math.max(word.length, other.length);
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + sub);
      if (free) for (let k = 2; k <= 3 && k <= j; k++) best = Math.min(best, d[i - 1]![j - k]!);
      d[i]![j] = best;
    }
  }
  return d[p.length]![t.length]!;
}

/**
 * The sentence of the source document nearest to a quoted one, and how they differ: an author who
 * paraphrased the source sees the real sentence.
 */
export function nearestSentence(quote: string, source: string): string {
  const sentences = source
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const [best] = sentences.map((s) => ({ s, d: distance(quote, s) })).sort((x, y) => x.d - y.d);
  return best ? best.s : "";
}

/** Steps, tags and rule citations of the feature files, all problems at once, with file and line. */
export async function lintFeatures(
  featuresDir: string,
  rules: RulesFile,
  world: WorldIds = worldIds(),
  library?: LoadedLibrary,
): Promise<{ problems: LintProblem[]; cited: Set<string> }> {
  library ??= await stepLibrary();
  const patterns = library.stepDefinitions.map((d) => (typeof d.pattern === "string" ? d.pattern : d.pattern.source));
  const known = new Set(rules.rules.map((r) => r.id));
  const problems: LintProblem[] = [];
  /** The rule IDs some scenario cites: what the coverage check needs, read here rather than by parsing the features again. */
  const citedIds = new Set<string>();
  // A step text recurs across scenarios (the suite has ~2,500 steps, far fewer texts): each is matched once.
  const matched = new Map<string, LoadedLibrary["stepDefinitions"]>();
  const matchesOf = (text: string) => {
    let found = matched.get(text);
    // The expression's regular expression decides whether it matches; match() would also build the
    // arguments (parsing the regexp's tree on each call), which made lint ten times slower.
    if (!found)
      matched.set(
        text,
        (found = library.stepDefinitions.filter((d) => (d.expression.regexp ? d.expression.regexp.test(text) : d.expression.match(text) !== null))),
      );
    return found;
  };
  for (const file of featureFiles(featuresDir)) {
    const shown = shownPath(file);
    let document;
    try {
      document = parsedFeature(file);
    } catch (error) {
      problems.push({
        file: shown,
        line: Number(/\((\d+):\d+\)/.exec(messageOf(error))?.[1] ?? 1),
        problem: `not Gherkin: ${messageOf(error).split("\n")[0]}`,
      });
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
        const matching = matchesOf(step.text);
        if (matching.length === 1) {
          const unknown = unknownTargets(step.text, world);
          if (unknown) problems.push({ file: shown, line: step.location.line, problem: unknown });
          continue;
        }
        if (matching.length > 1) {
          problems.push({ file: shown, line: step.location.line, problem: `step "${step.text}" matches ${matching.length} step definitions (ambiguous)` });
          continue;
        }
        const [best] = patterns.map((k) => ({ k, d: stepDistance(step.text, k) })).sort((x, y) => x.d - y.d);
        const meant = best && best.d <= Math.max(1.5, wordsOf(best.k).length / 4) ? best.k : undefined;
        problems.push({
          file: shown,
          line: step.location.line,
          problem: `undefined step "${step.text}"${meant ? `; did you mean "${meant}"?` : "; lomi-conformance steps lists them"}`,
        });
      }
      const scenario = child.scenario;
      if (!scenario) continue;
      const cited = [...featureRules, ...[...scenario.tags, ...scenario.examples.flatMap((e) => e.tags)].filter((t) => RULE_LIKE.test(t.name))];
      for (const tag of cited) citedIds.add(tag.name.slice(1));
      for (const tag of cited) {
        const id = tag.name.slice(1);
        if (known.has(id)) continue;
        const meant = nearestRule(id, [...known]);
        problems.push({
          file: shown,
          line: tag.location.line,
          problem: `${tag.name} is not a rule of docs/rules.json${meant ? `; did you mean @${meant}?` : ""}`,
        });
      }
      if (cited.length === 0)
        problems.push({ file: shown, line: scenario.location.line, problem: `scenario "${scenario.name}" cites no rule: tag it with the rule IDs it checks` });
    }
  }
  return { problems, cited: citedIds };
}

/**
 * A workspace or project a step names that the world does not hold. The world is the author's
 * fixture, listed in docs/world.md: a scenario naming a project it does not have fails its broker
 * with NOT_FOUND, which reads as the broker's failure. A display name is written on purpose (the
 * scenarios that check a name is not an ID), so it passes.
 */
export function unknownTargets(text: string, world: WorldIds): string | undefined {
  for (const [, kind, value] of text.matchAll(/\b(workspace|project) "([^"]*)"/g)) {
    // The pattern's groups always take part in a match; the check only narrows them.
    if (value === undefined) continue;
    const ids = kind === "workspace" ? world.workspaces : world.projects;
    if (ids.has(value) || world.names.has(value)) continue;
    const meant = nearest(value, [...ids]);
    return `${kind} "${value}" is not in the world the suite runs on (docs/world.md lists its ${kind}s: ${[...ids].join(", ")})${meant ? `; did you mean "${meant}"?` : ""}`;
  }
  return undefined;
}

/** Every rule is cited by a scenario: a rule nothing checks would read as judged while it is not. */
export function lintUncoveredRules(rules: RulesFile, cited: ReadonlySet<string>, rulesText: string, rulesFile: string): LintProblem[] {
  return rules.rules
    .filter((r) => !cited.has(r.id))
    .map((r) => ({
      file: rulesFile,
      line: ruleLine(rulesText, r.id),
      problem: `${r.id} has no scenario: tag one with @${r.id}, or the rule is reported "uncovered"`,
    }));
}

/** IDs are unique and of a declared family, so a tag means one rule. */
export function lintRuleIds(rules: RulesFile, rulesText: string, rulesFile: string): LintProblem[] {
  const seen = new Set<string>();
  return rules.rules.flatMap((r) => {
    const problems: LintProblem[] = [];
    if (seen.has(r.id)) problems.push({ file: rulesFile, line: ruleLine(rulesText, r.id), problem: `${r.id} is written twice` });
    const [family = ""] = r.id.split("-");
    if (!rules.families[family])
      problems.push({
        file: rulesFile,
        line: ruleLine(rulesText, r.id),
        problem: `${r.id}'s family is not one of families: ${Object.keys(rules.families).join(", ")}`,
      });
    seen.add(r.id);
    return problems;
  });
}

/** The titled passages of a doc an author can cite: markdown headings and the bold titles of decisions ("- **Title.** …"). */
export function citableTitles(doc: string): Set<string> {
  const titles = [...doc.matchAll(/^#{1,6}\s+(.+?)\s*$/gm), ...doc.matchAll(/^- \*\*(.+?)\.?\*\*/gm)].flatMap(([, title]) =>
    title === undefined ? [] : [title.replace(/\.$/, "").replace(/`/g, "")],
  );
  return new Set(titles);
}

/**
 * Every passage a rule's decision cites (`docs/decisions.md, "Title"`) and every decision a decision
 * points to (`see "Title"`) exists: an implementer who follows the reference must find it.
 */
export function lintCitations(rules: RulesFile, readDoc: (file: string) => string | undefined, rulesText: string, rulesFile: string): LintProblem[] {
  const problems: LintProblem[] = [];
  const check = (file: string, line: number, doc: string, title: string, where: string) => {
    const text = readDoc(doc);
    if (text === undefined) return problems.push({ file, line, problem: `${where} cites ${doc}, which does not exist` });
    const titles = citableTitles(text);
    if (titles.has(title.replace(/`/g, ""))) return;
    const meant = nearest(title, [...titles], (k) => Math.max(3, Math.floor(k.length / 2)));
    problems.push({ file, line, problem: `${where} cites ${doc}, "${title}", which ${doc} does not have${meant ? `; did you mean "${meant}"?` : ""}` });
  };
  for (const r of rules.rules) {
    for (const [, doc, title] of (r.decision ?? "").matchAll(/(docs\/[\w-]+\.md),? "([^"]+)"/g))
      if (doc && title) check(rulesFile, ruleLine(rulesText, r.id), doc, title, `${r.id}'s decision`);
  }
  const decisions = readDoc("docs/decisions.md") ?? "";
  decisions.split("\n").forEach((text, i) => {
    for (const [, title] of text.matchAll(/\bsee "([^"]+)"/g)) if (title) check("docs/decisions.md", i + 1, "docs/decisions.md", title, "a decision");
  });
  return problems;
}

/** Every rule's `source` stands verbatim in the source document; one that does not is named with the nearest real sentence. */
export function lintRuleSources(rules: RulesFile, source: string, rulesText: string, rulesFile: string): LintProblem[] {
  return rules.rules
    .filter((r) => !source.includes(r.source))
    .map((r) => ({
      file: rulesFile,
      line: ruleLine(rulesText, r.id),
      problem: `${r.id}'s source is not in ${rules.source} as written: "${r.source}"; the nearest sentence there is "${nearestSentence(r.source, source)}"`,
    }));
}

/**
 * The agent rules (rules.json's agent section) as the broker's are linted: IDs unique, sources verbatim,
 * decisions' citations found. They are not asked for scenarios: check and record judge them from traffic.
 */
export function lintAgentRules(
  rules: RulesFile,
  source: string,
  rulesText: string,
  rulesFile: string,
  readDoc: (file: string) => string | undefined = readKitFile,
): LintProblem[] {
  if (!rules.agent) return [];
  const agent: RulesFile = { ...rules, families: { [rules.agent.family]: rules.agent.title }, rules: rules.agent.rules };
  return [
    ...lintRuleIds(agent, rulesText, rulesFile),
    ...lintRuleSources(agent, source, rulesText, rulesFile),
    // decisions.md's own citations are linted once, with the broker's rules.
    ...lintCitations(agent, readDoc, rulesText, rulesFile).filter((p) => p.file === rulesFile),
  ];
}

/** Every sentence of the source is quoted by a rule, or placed in docs/source-map.json; each problem at the line it is about. */
function lintSourceMap(rules: RulesFile): LintProblem[] {
  const source = readFileSync(kitPath(rules.source), "utf8");
  const mapText = readFileSync(kitPath(SOURCE_MAP_FILE), "utf8");
  // A sentence's line: where its first words stand (a table row up to its tab; in JSON as escaped there).
  const lineIn = (text: string, sentence: string) => {
    const [cell = ""] = sentence.split("\t");
    const start = cell.slice(0, 40);
    return text.split("\n").findIndex((l) => l.includes(start) || l.includes(JSON.stringify(start).slice(1, -1))) + 1 || 1;
  };
  return sourceMapProblems(sourceUnits(source), rules, loadSourceMap()).map((p) =>
    p.in === "source"
      ? { file: shownPath(kitPath(rules.source)), line: lineIn(source, p.sentence), problem: p.problem }
      : { file: shownPath(kitPath(SOURCE_MAP_FILE)), line: lineIn(mapText, p.sentence), problem: p.problem },
  );
}

/** A path as lint prints it: relative to where it was run, or whole when it lies outside (no "../../"). */
const shownPath = (file: string) => {
  const relative = path.relative(process.cwd(), file);
  return relative === "" || relative.startsWith("..") ? file : relative;
};
const readKitFile = (file: string) => (existsSync(kitPath(file)) ? readFileSync(kitPath(file), "utf8") : undefined);

/** The documents generated from the rules, decisions and world, each checked against what `npm run spec` would write now. */
function lintGeneratedDocs(rules: RulesFile): LintProblem[] {
  return generatedDocs(rules)
    .filter((d) => readKitFile(d.file) !== d.text)
    .map((d) => ({
      file: shownPath(kitPath(d.file)),
      line: 1,
      problem: `${d.file} is not rendered from the current rules, decisions and world: run npm run spec`,
    }));
}

/**
 * `lomi-conformance lint`: the features, the rules (IDs, sources, citations, coverage) and the
 * generated docs, with no broker, every problem at once. A folder of drafts (LOMI_FEATURES_DIR) is
 * not asked to cover every rule; `generated: false` leaves out the docs `npm run spec` is about to write;
 * a conformance run passes the step definitions it loaded (they register once a process).
 */
export async function lintSuite(
  featuresDir: string = FEATURES_DIR,
  { generated = true, library }: { generated?: boolean; library?: LoadedLibrary } = {},
): Promise<LintProblem[]> {
  const rules = loadRules();
  const rulesText = readFileSync(RULES_FILE, "utf8");
  const shownRules = shownPath(RULES_FILE);
  const { problems, cited } = await lintFeatures(featuresDir, rules, worldIds(), library);
  return [
    ...problems,
    ...lintRuleIds(rules, rulesText, shownRules),
    ...lintRuleSources(rules, readFileSync(kitPath(rules.source), "utf8"), rulesText, shownRules),
    ...lintCitations(rules, readKitFile, rulesText, shownRules),
    ...lintAgentRules(rules, readFileSync(kitPath(rules.source), "utf8"), rulesText, shownRules),
    ...lintSourceMap(rules),
    ...(featuresDir === kitPath("features") ? lintUncoveredRules(rules, cited, rulesText, shownRules) : []),
    ...(generated ? lintGeneratedDocs(rules) : []),
  ];
}

/** The problems as lint prints them: `file:line: problem`, one a line. */
export const lintText = (problems: readonly LintProblem[]) => problems.map((p) => `${p.file}:${p.line}: ${p.problem}`).join("\n");
