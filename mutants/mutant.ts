import type { Capability } from "../harness/run/capabilities.js";
import type { BrokerParts } from "../reference-broker/broker.js";

/**
 * A deliberately non-conforming broker: the reference broker with one defective part. The suite must
 * judge it not conformant, and name the family it breaks. `npm test` checks every mutant
 * (test/mutants.test.ts); `node mutants/lomi-mutant.js NAME` runs one, as lomi-broker would.
 */
export interface Mutant {
  /** Its name on the command line and in reports. */
  name: string;
  /** The rule family it breaks. */
  family: string;
  /** The rules it is meant to fail (empty while its family has no rules in docs/rules.json yet). */
  breaks: string[];
  /** What is wrong with it, in one sentence. */
  defect: string;
  /**
   * The oracle (harness/oracles/) made to catch it: with the oracles on, it fails scenarios that its
   * steps alone pass (`npm test` runs the mutant's rules with --oracles on and off and compares).
   */
  oracle?: string;
  /** Whether the steps alone pass it entirely (a run with --oracles off judges it conformant). */
  stepsBlind?: boolean;
  /** The scenarios that show the defect, as a tag expression, when they are not those of the rules it breaks. */
  shownBy?: string;
  /** A harness capability its scenarios need that a broker at a URL lacks (crash, own-store): it is then run as a command. */
  needs?: Capability;
  parts: BrokerParts;
}
