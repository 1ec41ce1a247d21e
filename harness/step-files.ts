import path from "node:path";
import { loadSupport } from "@cucumber/cucumber/api";
import { KIT_ROOT } from "../protocol/kit-root.js";

/** Whether this harness runs compiled (dist/) rather than from its TypeScript through tsx. */
export const COMPILED = import.meta.url.endsWith(".js");

/** The step definitions cucumber loads: compiled beside a compiled harness, else the TypeScript. */
export const STEP_FILES = COMPILED ? path.join(KIT_ROOT, "dist/steps/**/*.js") : path.join(KIT_ROOT, "steps/**/*.ts");

/**
 * What cucumber's parallel workers need in NODE_OPTIONS: source maps so a compiled step reports
 * its TypeScript file and line, or tsx to load the TypeScript.
 */
export const WORKER_NODE_OPTION = COMPILED ? "--enable-source-maps" : "--import tsx";

/**
 * Where the harness keeps NODE_OPTIONS as the user gave them, before adding WORKER_NODE_OPTION for
 * its workers: a broker it starts gets the user's, not the harness's (a Node broker would otherwise
 * load tsx, or read its source maps at every start).
 */
export const USER_NODE_OPTIONS = "LOMI_USER_NODE_OPTIONS";

/**
 * Cucumber's support library from the step files. Source maps go on just before they load, so each
 * compiled step is located at its TypeScript file and line (reports, `lomi-conformance steps`, which
 * reads a step's code there), while the modules loaded before them read no source map.
 */
export function loadSteps(runConfiguration: Parameters<typeof loadSupport>[0]): ReturnType<typeof loadSupport> {
  if (COMPILED) process.setSourceMapsEnabled(true);
  return loadSupport(runConfiguration, { cwd: KIT_ROOT });
}
