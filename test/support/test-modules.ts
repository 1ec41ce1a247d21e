import { COMPILED } from "../../harness/run/step-files.js";

// The tests run in the form the kit they import runs in: compiled into dist/test/ beside it
// (scripts/run-tests.mjs), or from their TypeScript through tsx.

/** What a node process a test starts needs to import the tests' modules as this process does: tsx, when they run from their TypeScript. */
export const LOADER_ARGS = COMPILED ? [] : ["--import", "tsx"];

/** The URL of a module of test/support/ (`name` without its extension) in the form this process runs it. */
export const supportModule = (name: string): string => new URL(`./${name}.${COMPILED ? "js" : "ts"}`, import.meta.url).href;
