/**
 * Examples for the steps no feature of the suite uses yet (the features are where examples come
 * from). Keyed by the step's pattern; a unit test fails if an entry no longer matches its step.
 */
export const STEP_EXAMPLES: Readonly<Record<string, string>> = {
  "the Lomi world {string}": 'the Lomi world "default"',
};
