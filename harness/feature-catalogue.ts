import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AstBuilder, compile, GherkinClassicTokenMatcher, Parser } from "@cucumber/gherkin";
import { IdGenerator } from "@cucumber/messages";

/** The kit's features; LOMI_FEATURES_DIR points a run at another folder (a scenario writer's draft, the kit's own tests). */
export const FEATURES_DIR = process.env.LOMI_FEATURES_DIR ? path.resolve(process.env.LOMI_FEATURES_DIR) : fileURLToPath(new URL("../features", import.meta.url));

export interface ScenarioEntry {
  uri: string;
  name: string;
  /** Tags including those inherited from the feature and rule. */
  tags: string[];
}

export function featureFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? featureFiles(full) : e.name.endsWith(".feature") ? [full] : [];
  });
}

/** Every scenario of the suite's feature files, compiled as cucumber would (outlines expanded). */
export function scenarioCatalogue(dir: string = FEATURES_DIR): ScenarioEntry[] {
  const newId = IdGenerator.uuid();
  return featureFiles(dir).flatMap((file) => {
    const parser = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher());
    const uri = path.relative(path.dirname(dir), file);
    const document = parser.parse(readFileSync(file, "utf8"));
    return compile(document, uri, newId).map((p) => ({ uri, name: p.name, tags: p.tags.map((t) => t.name) }));
  });
}
