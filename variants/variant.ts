import type { BrokerPolicy } from "../reference-broker/broker-policy.js";

/**
 * A legal variant: the reference broker with other choices where the rules leave one open (the dual
 * of a mutant). The suite must judge it conformant. `npm test` runs each on the scenarios its
 * difference touches, over stdio as a user would (test/e2e/variants.test.ts), and all of them
 * combined on the whole suite; `node variants/lomi-variant.js NAME` runs one, as lomi-broker would.
 */
export interface Variant {
  /** Its name on the command line and in reports. */
  name: string;
  /** What it does differently, in one sentence. */
  difference: string;
  /** Why that is legal: the rule text or decision that leaves the choice open. */
  leftOpenBy: string;
  /** The cucumber tag expression of the scenarios its difference touches. */
  touches: string;
  /** Whether its scenarios arm fault hooks (run with --broker-faults). */
  faults: boolean;
  policy: Partial<BrokerPolicy>;
}
