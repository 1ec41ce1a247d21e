import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfiguration, runCucumber, type ISupportCodeLibrary } from "@cucumber/cucumber/api";
import { kitPath } from "../../protocol/kit-root.js";
import { STEP_SUPPORT } from "../../harness/run/step-files.js";
import { stepLibrary } from "../../harness/authoring/step-vocabulary.js";
import { scenarioResults, type ScenarioResult } from "../../harness/report/scenario-results.js";
import { readMessages } from "../../harness/report/message-stream.js";

/**
 * Runs one feature's text with the kit's steps, in this process against the in-process broker (a
 * mutant's or a variant's when `worldParameters` names one); answers cucumber's success and each scenario's result.
 */
export async function runFeature(
  text: string,
  worldParameters: Record<string, string | number | boolean> = {},
): Promise<{ success: boolean; results: ScenarioResult[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-feature-"));
  const feature = path.join(dir, "test.feature");
  writeFileSync(feature, text);
  const messages = path.join(dir, "messages.ndjson");
  const root = kitPath(".");
  const { runConfiguration } = await loadConfiguration(
    { file: false, provided: { paths: [feature], ...STEP_SUPPORT, strict: true, format: [`message:${messages}`], worldParameters } },
    { cwd: root },
  );
  // The steps as every run in this process has them: a second load of their modules registers none.
  const support = (await stepLibrary()) as unknown as ISupportCodeLibrary;
  const { success } = await runCucumber({ ...runConfiguration, support }, { cwd: root });
  return { success, results: scenarioResults(readMessages(messages)) };
}
