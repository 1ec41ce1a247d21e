import path from "node:path";
import { loadConfiguration, loadSupport } from "@cucumber/cucumber/api";
import { AstBuilder, compile, GherkinClassicTokenMatcher, Parser } from "@cucumber/gherkin";
import { IdGenerator } from "@cucumber/messages";
import { readFileSync } from "node:fs";
import { featureFiles, FEATURES_DIR } from "./feature-catalogue.js";
import { STEP_EXAMPLES } from "./step-examples.js";
import { STEP_FILES } from "./step-files.js";
import { KIT_ROOT } from "../protocol/kit-root.js";

const ROOT = KIT_ROOT;

export interface StepEntry {
  keyword: string;
  /** The cucumber expression or regular expression, as registered. */
  pattern: string;
  /** Where the step is defined (steps/x.steps.ts:12). */
  definedAt: string;
  /** The first use of the step in the suite's features: a real, working example. */
  example: { text: string; docString: string | undefined; usedAt: string } | undefined;
}

export interface ParameterEntry {
  name: string;
  regexp: string;
}

/** Cucumber types its support code library as a marker; these are the fields it really has. */
export interface LoadedLibrary {
  stepDefinitions: Array<{ keyword: string; pattern: string | RegExp; uri: string; line: number; expression: { match(text: string): unknown[] | null } }>;
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
 * The registered step definitions, loaded once a process: the step files are modules, which
 * register their steps only the first time they load (a second load finds none).
 */
export function stepLibrary(featuresDir: string = FEATURES_DIR): Promise<LoadedLibrary> {
  loaded ??= (async () => {
    const { runConfiguration } = await loadConfiguration({ file: false, provided: { paths: [path.join(featuresDir, "**/*.feature")], import: [STEP_FILES] } }, { cwd: ROOT });
    return (await loadSupport(runConfiguration, { cwd: ROOT })) as unknown as LoadedLibrary;
  })();
  return loaded;
}

/**
 * The step vocabulary, read from the step definitions cucumber registers (so it cannot drift from
 * the code), each with an example taken from the features that use it.
 */
export async function stepVocabulary(featuresDir: string = FEATURES_DIR): Promise<{ steps: StepEntry[]; parameters: ParameterEntry[] }> {
  const library = await stepLibrary(featuresDir);
  const used = usedSteps(featuresDir);
  const steps = library.stepDefinitions.map((def) => {
    const pattern = typeof def.pattern === "string" ? def.pattern : def.pattern.source;
    const listed = STEP_EXAMPLES[pattern];
    const fromTable = listed !== undefined && def.expression.match(listed) !== null ? { text: listed, docString: undefined, usedAt: "harness/step-examples.ts" } : undefined;
    return {
      keyword: def.keyword,
      pattern,
      definedAt: `${path.relative(ROOT, def.uri)}:${def.line}`,
      example: used.find((u) => def.expression.match(u.text) !== null) ?? fromTable,
    };
  });
  const parameters = [...library.parameterTypeRegistry.parameterTypes]
    .filter((p) => !p.builtin)
    .map((p) => ({ name: p.name ?? "", regexp: p.regexpStrings.join(" | ") }));
  return { steps, parameters };
}

/** The vocabulary as `lomi-conformance steps` prints it. */
export function formatVocabulary({ steps, parameters }: { steps: StepEntry[]; parameters: ParameterEntry[] }): string {
  const out = ["The step vocabulary of the Lomi conformance suite (docs/writing-scenarios.md tells how to use it).", ""];
  out.push("Parameters:", ...parameters.map((p) => `  {${p.name}}  ${p.regexp}`), "");
  let file = "";
  for (const s of steps) {
    const where = s.definedAt.replace(/:\d+$/, "");
    if (where !== file) {
      file = where;
      out.push(`${where}:`);
    }
    out.push(`  ${s.keyword} ${s.pattern.replace(/\\\//g, "/")}`);
    if (!s.example) {
      out.push("    (no scenario uses this step yet)");
      continue;
    }
    out.push(`    e.g. ${s.keyword} ${s.example.text}    # ${s.example.usedAt}`);
    if (s.example.docString) out.push(...['      """', ...s.example.docString.split("\n").map((l) => `      ${l}`), '      """']);
  }
  return `${out.join("\n")}\n`;
}
