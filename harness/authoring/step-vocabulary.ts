import path from "node:path";
import { loadConfiguration, loadSupport } from "@cucumber/cucumber/api";
import { AstBuilder, compile, GherkinClassicTokenMatcher, Parser } from "@cucumber/gherkin";
import { IdGenerator } from "@cucumber/messages";
import { readFileSync } from "node:fs";
import { featureFiles, FEATURES_DIR } from "../run/feature-catalogue.js";
import { STEP_EXAMPLES } from "./step-examples.js";
import { STEP_SUPPORT } from "../run/step-files.js";
import { KIT_ROOT } from "../../protocol/kit-root.js";

const ROOT = KIT_ROOT;

export interface StepEntry {
  keyword: string;
  /** The cucumber expression or regular expression, as registered. */
  pattern: string;
  /** Where the step is defined (steps/x.steps.ts:12). */
  definedAt: string;
  /** The first use of the step in the suite's features: a real, working example. */
  example: { text: string; docString: string | undefined; usedAt: string } | undefined;
  /** The rules the step's own checks name, blamed whatever its scenario cites (empty: it judges the rules its scenario cites). */
  judges: string[];
}

/** A top-level declaration of a step file: a registration, a function or a constant, to the next one. */
interface Block {
  line: number;
  name: string | undefined;
  text: string;
}

function blocksOf(source: string): Block[] {
  const lines = source.split("\n");
  const starts = lines.flatMap((l, i) => (/^[A-Za-z]/.test(l) && !/^(import|\/\/)/.test(l) ? [i] : []));
  return starts.map((from, k) => ({
    line: from + 1,
    name: /^(?:export )?(?:async )?(?:function\*? |const |let )(\w+)/.exec(lines[from]!)?.[1],
    text: lines.slice(from, starts[k + 1]).join("\n"),
  }));
}

/**
 * The rule IDs a step's code names (`violation(…, ["EVT-01"])`), in its body or in the functions of
 * its file it calls: a failure of such a check is blamed on those rules by structured data, never on
 * the scenario's other rules.
 */
function namedRules(file: string, line: number, files: Map<string, Block[]>): string[] {
  const blocks = files.get(file) ?? blocksOf(readFileSync(file, "utf8"));
  files.set(file, blocks);
  const byName = new Map(blocks.flatMap((b) => (b.name ? [[b.name, b] as const] : [])));
  const found = new Set<string>();
  const seen = new Set<Block>();
  const visit = (b: Block | undefined) => {
    if (!b || seen.has(b)) return;
    seen.add(b);
    for (const m of b.text.matchAll(/"([A-Z]+-\d{2})"/g)) found.add(m[1]!);
    for (const m of b.text.matchAll(/\b(\w+)\(/g)) visit(byName.get(m[1]!));
  };
  visit(blocks.filter((b) => b.line <= line).at(-1));
  return [...found];
}

export interface ParameterEntry {
  name: string;
  regexp: string;
}

/** Cucumber types its support code library as a marker; these are the fields it really has. */
export interface LoadedLibrary {
  stepDefinitions: Array<{
    keyword: string;
    pattern: string | RegExp;
    uri: string;
    line: number;
    expression: { match(text: string): unknown[] | null; regexp?: RegExp };
  }>;
  parameterTypeRegistry: { parameterTypes: Iterable<{ name: string | undefined; regexpStrings: readonly string[]; builtin: boolean }> };
}

interface UsedStep {
  text: string;
  docString: string | undefined;
  usedAt: string;
}

/** Every step of every feature, as cucumber compiles it (outlines expanded). */
function usedSteps(dir: string): UsedStep[] {
  const newId = IdGenerator.uuid();
  return featureFiles(dir).flatMap((file) => {
    const uri = path.relative(path.dirname(dir), file);
    const document = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher()).parse(readFileSync(file, "utf8"));
    const lines = new Map<string, number>();
    for (const child of document.feature?.children ?? []) {
      for (const step of [...(child.background?.steps ?? []), ...(child.scenario?.steps ?? [])]) lines.set(step.id, step.location.line);
    }
    return compile(document, uri, newId).flatMap((pickle) =>
      pickle.steps.map((s) => ({ text: s.text, docString: s.argument?.docString?.content, usedAt: `${uri}:${lines.get(s.astNodeIds[0] ?? "") ?? "?"}` })),
    );
  });
}

let loaded: Promise<LoadedLibrary> | undefined;

/**
 * The registered step definitions, loaded once a process for everything in it that needs them (a run,
 * lint, the vocabulary; the kit's tests that run a feature): the step files are modules, which
 * register their steps only the first time they load (a second load finds none). They do not depend
 * on which features are judged.
 */
export function stepLibrary(): Promise<LoadedLibrary> {
  loaded ??= (async () => {
    const { runConfiguration } = await loadConfiguration(
      { file: false, provided: { paths: [path.join(FEATURES_DIR, "**/*.feature")], ...STEP_SUPPORT } },
      { cwd: ROOT },
    );
    return (await loadSupport(runConfiguration, { cwd: ROOT })) as unknown as LoadedLibrary;
  })();
  return loaded;
}

/**
 * The step vocabulary, read from the step definitions cucumber registers (so it cannot drift from
 * the code), each with an example taken from the features that use it.
 */
export async function stepVocabulary(featuresDir: string = FEATURES_DIR): Promise<{ steps: StepEntry[]; parameters: ParameterEntry[] }> {
  const library = await stepLibrary();
  const used = usedSteps(featuresDir);
  const sources = new Map<string, Block[]>();
  const steps = library.stepDefinitions.map((def) => {
    const pattern = typeof def.pattern === "string" ? def.pattern : def.pattern.source;
    const listed = STEP_EXAMPLES[pattern];
    const fromTable =
      listed !== undefined && def.expression.match(listed) !== null
        ? { text: listed, docString: undefined, usedAt: "harness/authoring/step-examples.ts" }
        : undefined;
    return {
      keyword: def.keyword,
      pattern,
      definedAt: `${path.relative(ROOT, def.uri)}:${def.line}`,
      example: used.find((u) => def.expression.match(u.text) !== null) ?? fromTable,
      judges: namedRules(path.resolve(ROOT, def.uri), def.line, sources),
    };
  });
  const parameters = [...library.parameterTypeRegistry.parameterTypes]
    .filter((p) => !p.builtin)
    .map((p) => ({ name: p.name ?? "", regexp: p.regexpStrings.join(" | ") }));
  return { steps, parameters };
}

/** The vocabulary as `lomi-conformance steps` prints it. */
export function formatVocabulary(
  { steps, parameters }: { steps: StepEntry[]; parameters: ParameterEntry[] },
  oracles: ReadonlyArray<{ id: string; rules: readonly string[] }> = [],
): string {
  const out = [
    "The step vocabulary of the Lomi conformance suite (docs/writing-scenarios.md tells how to use it).",
    "",
    "What a step judges: a step's failure fails the rules its scenario cites (narrowed by a `# checks RULE` comment above it),",
    'except a check that names its rules ("judges" below), which fails those alone. Every reply any step reads is',
    "checked against the envelope rules (ENV-01 to ENV-04, ENV-10 for images), each failure naming its rule; after the",
    "steps, every scenario's history is judged by the oracles, each failing the rules it cites:",
    ...oracles.map((o) => `  ${o.id}: ${o.rules.join(", ")}`),
    "",
  ];
  out.push("Parameters:", ...parameters.map((p) => `  {${p.name}}  ${p.regexp}`), "");
  let file = "";
  for (const s of steps) {
    const where = s.definedAt.replace(/:\d+$/, "");
    if (where !== file) {
      file = where;
      out.push(`${where}:`);
    }
    out.push(`  ${s.keyword} ${s.pattern.replace(/\\\//g, "/")}`);
    if (s.judges.length > 0) out.push(`    judges ${s.judges.join(", ")}, whatever the scenario cites`);
    if (!s.example) {
      out.push("    (no scenario uses this step yet)");
      continue;
    }
    out.push(`    e.g. ${s.keyword} ${s.example.text}    # ${s.example.usedAt}`);
    if (s.example.docString) out.push(...['      """', ...s.example.docString.split("\n").map((l) => `      ${l}`), '      """']);
  }
  return `${out.join("\n")}\n`;
}
