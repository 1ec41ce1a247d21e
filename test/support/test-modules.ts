/** Whether the tests run from their TypeScript through tsx, rather than compiled into dist/test/ (scripts/run-tests.mjs). */
const FROM_SOURCE = import.meta.url.endsWith(".ts");

/** What a node process a test starts needs to import the tests' modules as this process does: tsx, when they run from their TypeScript. */
export const LOADER_ARGS = FROM_SOURCE ? ["--import", "tsx"] : [];

/** The URL of a module of test/support/ (`name` without its extension) in the form this process runs it. */
export const supportModule = (name: string): string => new URL(`./${name}.${FROM_SOURCE ? "ts" : "js"}`, import.meta.url).href;
