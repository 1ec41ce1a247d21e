// Every wait in the tests derives from one budget, generous by default so a loaded machine does not
// fail them; LOMI_TEST_BUDGET_MS changes it for all at once.
export const BUDGET_MS = Number(process.env.LOMI_TEST_BUDGET_MS ?? 10_000);

/** The --timeout-ms a test gives lomi-conformance: the budget. */
export const TIMEOUT_ARGS = ["--timeout-ms", String(BUDGET_MS)];
