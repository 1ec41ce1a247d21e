import path from "node:path";
import { configError } from "../harness-error.js";
import { selectScenarios } from "./tag-selection.js";
import { scenarioKey, type ScenarioEntry } from "./feature-catalogue.js";

export interface ScenarioChoice {
  /** `features/x.feature:LINE` words, each naming a file and, optionally, lines within its scenarios. */
  places: readonly string[];
  /** --name: a regular expression a scenario's name must match. */
  name: string | undefined;
  tags: string | undefined;
  /** Already chosen (a rerun of failures): the other choices narrow it. */
  among?: Chosen;
}

/** What a run's `only` takes: the scenarios chosen, by scenarioKey (a name alone is not unique across files), and the words that say which. */
export interface Chosen {
  keys: ReadonlySet<string>;
  label: string;
}

/** The suite's names nearest a text, as a suggestion: the smallest edit distance from the text to any stretch of the name. */
function nearest(text: string, names: readonly string[], count = 3): string[] {
  const t = text.toLowerCase();
  const within = (name: string) => {
    // Sellers: the text may start anywhere in the name and end anywhere, at no cost.
    const n = name.toLowerCase();
    let previous = new Array<number>(n.length + 1).fill(0);
    for (let i = 1; i <= t.length; i++) {
      const row = [i];
      for (let j = 1; j <= n.length; j++) row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (t[i - 1] === n[j - 1] ? 0 : 1)));
      previous = row;
    }
    return Math.min(...previous);
  };
  return [...new Set(names)]
    .map((name) => ({ name, d: within(name) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, count)
    .map((x) => x.name);
}

/** The catalogue's entries of the file a place names: the kit's path (`features/x.feature`), a path to it, or its file name. */
function entriesOf(file: string, catalogue: readonly ScenarioEntry[], featuresRoot: string): ScenarioEntry[] {
  const wanted = file.replace(/\\/g, "/");
  const found = catalogue.filter((s) => s.uri === wanted || path.resolve(file) === path.join(featuresRoot, s.uri) || s.uri.endsWith(`/${wanted}`));
  if (found.length > 0) return found;
  const near = nearest(
    path.basename(wanted, ".feature"),
    catalogue.map((s) => s.uri),
  );
  throw configError(`${file}: no such feature file in the suite; the nearest: ${near.join(", ")}`);
}

/** The scenarios of one place: a line selects the scenario (or Examples row) it starts, or the scenario it lies within. */
function scenariosAt(place: string, catalogue: readonly ScenarioEntry[], featuresRoot: string): ScenarioEntry[] {
  const [file, ...lines] = place.split(":");
  const inFile = entriesOf(file!, catalogue, featuresRoot);
  if (lines.length === 0) return inFile;
  return lines.flatMap((text) => {
    const line = Number(text);
    const exact = inFile.filter((s) => s.line === line);
    if (exact.length > 0) return exact;
    const fileLines = inFile[0]!.fileLines;
    if (fileLines !== undefined && line > fileLines) {
      throw configError(
        `${file}:${line} is past the end of ${inFile[0]!.uri} (${fileLines} lines); its scenarios start at lines ${inFile.map((s) => s.line).join(", ")}`,
      );
    }
    const before = inFile.filter((s) => s.line <= line);
    if (before.length === 0) {
      throw configError(`${file}:${line} is not within a scenario; the scenarios of ${inFile[0]!.uri} start at lines ${inFile.map((s) => s.line).join(", ")}`);
    }
    const start = Math.max(...before.map((s) => s.line));
    return before.filter((s) => s.line === start);
  });
}

/**
 * The scenarios the command line names, within the --tags selection: each choice narrows the
 * others. A choice that matches nothing is refused (exit 2) with the nearest names or lines, as a
 * --tags that selects nothing is: a run that ran no scenario must not look green. Undefined when
 * nothing but --tags chooses.
 */
export function chooseScenarios(c: ScenarioChoice, catalogue: readonly ScenarioEntry[], featuresRoot: string): Chosen | undefined {
  if (c.places.length === 0 && c.name === undefined && c.among === undefined) return undefined;
  let pool: ScenarioEntry[] = [...catalogue];
  const words: string[] = [];
  if (c.among) {
    pool = pool.filter((s) => c.among!.keys.has(scenarioKey(s)));
    words.push(c.among.label);
  }
  if (c.places.length > 0) {
    const at = new Set(c.places.flatMap((p) => scenariosAt(p, catalogue, featuresRoot)));
    pool = pool.filter((s) => at.has(s));
    words.push(c.places.join(" "));
  }
  if (c.name !== undefined) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(c.name);
    } catch (error) {
      throw configError(`--name ${JSON.stringify(c.name)} is not a regular expression: ${(error as Error).message}`);
    }
    const named = catalogue.filter((s) => pattern.test(s.name));
    if (named.length === 0) {
      throw configError(
        `--name ${JSON.stringify(c.name)} matches no scenario's name; the nearest: ${nearest(
          c.name,
          catalogue.map((s) => s.name),
        )
          .map((n) => JSON.stringify(n))
          .join(", ")}`,
      );
    }
    pool = pool.filter((s) => named.includes(s));
    words.push(`--name ${JSON.stringify(c.name)}`);
  }
  const chosen = selectScenarios(c.tags, pool);
  if (chosen.length === 0) {
    const within =
      c.tags !== undefined && pool.length > 0
        ? `; ${pool.length} scenario(s) match without --tags "${c.tags}", e.g. "${pool[0]!.name}" (${pool[0]!.uri}:${pool[0]!.line})`
        : "";
    throw configError(`${words.join(" with ")}${c.tags !== undefined ? ` within --tags "${c.tags}"` : ""} chooses no scenario${within}`);
  }
  return { keys: new Set(chosen.map(scenarioKey)), label: words.join(", ") };
}
