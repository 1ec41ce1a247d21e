// bench/figures/explore-mutants.json: what a default explore campaign found on each hand-written
// mutant, one validated shape, and the markdown table docs/explore.md ("What explore finds") shows.
// Each entry keeps the campaign it was measured with, so misses confirmed at the default budget can
// replace entries of a quicker first pass without re-measuring every mutant.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

export const EXPLORE_MUTANTS_JSON = "bench/figures/explore-mutants.json";

const campaignSchema = z.strictObject({ seed: z.number().int(), runs: z.number().int(), steps: z.number().int(), timeBudgetS: z.number() });
export type Campaign = z.infer<typeof campaignSchema>;

/** The campaign `lomi-conformance explore --mutant NAME` runs without options (harness/commands/options.ts). */
export const DEFAULT_CAMPAIGN: Campaign = { seed: 1, runs: 100, steps: 60, timeBudgetS: 100 };

const findingSchema = z.strictObject({
  /** The oracles that failed on the shrunk case. */
  oracles: z.array(z.string()),
  /** The rules its findings break (docs/explore.md, "What each finding blames"). */
  rules: z.array(z.string()),
  /** The campaign's run that first violated (1-based, shrinking runs not counted). */
  run: z.number().int(),
  /** Steps of the shrunk case. */
  shrunkSteps: z.number().int(),
  /** The time budget ended the shrinking: a shorter case may exist. */
  shrinkCut: z.boolean(),
  /** The replay of the shrunk case, as `explore --replay … --replay-path …` takes it. */
  path: z.string(),
  replayPath: z.string(),
});

export const entrySchema = z.strictObject({
  mutant: z.string(),
  /** The rules the mutant declares it breaks (mutants/). */
  declares: z.array(z.string()),
  campaign: campaignSchema,
  finding: findingSchema.nullable(),
  /** Runs of the campaign done (for a miss: how far the budget reached), shrinking runs not counted. */
  runs: z.number().int(),
  interrupted: z.boolean(),
  wallMs: z.number(),
  /** This process's user + system CPU over the campaign (the broker runs in it). */
  cpuMs: z.number(),
  /** The 1-minute load average when the campaign started: a miss on a loaded machine reached fewer runs. */
  loadAverage: z.number(),
  date: z.iso.datetime(),
  /** The kit's commit (git HEAD) measured. */
  commit: z.string(),
});
export type Entry = z.infer<typeof entrySchema>;

const fileSchema = z.strictObject({ format: z.literal("lomi-explore-mutants/1"), entries: z.array(entrySchema) });

export function readEntries(file: string): Entry[] {
  if (!existsSync(file)) return [];
  return fileSchema.parse(JSON.parse(readFileSync(file, "utf8"))).entries;
}

/** Entries measured now replace those of the same mutants; the rest are kept, in the order of `names` (names no longer a mutant are dropped). */
export function mergeEntries(kept: readonly Entry[], measured: readonly Entry[], names: readonly string[]): Entry[] {
  const byName = new Map([...kept, ...measured].map((e) => [e.mutant, e]));
  return names.flatMap((n) => byName.get(n) ?? []);
}

export function writeEntries(file: string, entries: readonly Entry[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(fileSchema.parse({ format: "lomi-explore-mutants/1", entries }), null, 2)}\n`);
}

const sameCampaign = (a: Campaign, b: Campaign) => a.seed === b.seed && a.runs === b.runs && a.steps === b.steps && a.timeBudgetS === b.timeBudgetS;

/** One line of progress, and the "found by" of the table. */
export function foundBy(e: Entry): string {
  if (!e.finding) return `not found in ${e.runs} runs${e.interrupted ? ` (the ${e.campaign.timeBudgetS} s budget ended it)` : ""}`;
  return `${e.finding.oracles.join(", ")} (${e.finding.rules.join(", ") || "no rule"})`;
}

/**
 * The table of docs/explore.md: a row per mutant; a miss reads "not found" for the docs to say why.
 * A campaign other than the default is named in its row, so a quick pass is never shown as the default.
 */
export function markdownTable(entries: readonly Entry[]): string {
  const rows = entries.map((e) => {
    const other = sameCampaign(e.campaign, DEFAULT_CAMPAIGN)
      ? ""
      : ` (seed ${e.campaign.seed}, ${e.campaign.runs} runs of ≤${e.campaign.steps} steps, ${e.campaign.timeBudgetS} s)`;
    const f = e.finding;
    const shrunk = f ? `${f.shrunkSteps} step${f.shrunkSteps === 1 ? "" : "s"}${f.shrinkCut ? " (the budget ended the shrinking)" : ""}` : "—";
    return `| ${e.mutant} | ${foundBy(e)}${other} | ${f ? f.run : "—"} | ${shrunk} |`;
  });
  return ["| mutant | found by (the rules its finding breaks) | runs to find it | shrunk to |", "|---|---|---|---|", ...rows].join("\n");
}

/** "finds N of M": the found entries of a default campaign among those given. */
export function tally(entries: readonly Entry[]): { found: number; of: number; notDefault: string[] } {
  return {
    found: entries.filter((e) => e.finding).length,
    of: entries.length,
    notDefault: entries.filter((e) => !sameCampaign(e.campaign, DEFAULT_CAMPAIGN)).map((e) => e.mutant),
  };
}
