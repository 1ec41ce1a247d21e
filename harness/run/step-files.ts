import path from "node:path";
import { KIT_ROOT } from "../../protocol/kit-root.js";

/** Whether this harness runs compiled (dist/) rather than from its TypeScript through tsx. */
export const COMPILED = import.meta.url.endsWith(".js");

/** The step definitions cucumber loads: compiled beside a compiled harness, else the TypeScript. */
export const STEP_FILES = COMPILED ? path.join(KIT_ROOT, "dist/steps/**/*.js") : path.join(KIT_ROOT, "steps/**/*.ts");

/** What each --parallel worker loads beside the steps: it leaves a stop signal to the harness (worker-signals.ts). */
const WORKER_SIGNALS = path.join(KIT_ROOT, COMPILED ? "dist/harness/suite/worker-signals.js" : "harness/suite/worker-signals.ts");

/**
 * The step files with the workers' signal handling, and in compiled form the module that maps them to the TypeScript
 * (harness/suite/step-source-maps.cjs). That module is a support file cucumber requires before it imports
 * the steps, not a `requireModule`: cucumber warns at every run and lint that a requireModule
 * without `require` paths is likely a mistake.
 */
export const STEP_SUPPORT = { import: [STEP_FILES, WORKER_SIGNALS], require: COMPILED ? [path.join(KIT_ROOT, "harness/suite/step-source-maps.cjs")] : [] };

/**
 * What cucumber's parallel workers need in NODE_OPTIONS to load the TypeScript (tsx); compiled steps
 * need nothing (STEP_SUPPORT maps them).
 */
export const WORKER_NODE_OPTION = COMPILED ? undefined : "--import tsx";

/**
 * Where the harness keeps NODE_OPTIONS as the user gave them, before adding WORKER_NODE_OPTION for
 * its workers: a broker it starts gets the user's, not the harness's (a Node broker would otherwise
 * load tsx at every start).
 */
export const USER_NODE_OPTIONS = "LOMI_USER_NODE_OPTIONS";
