import { Then } from "@cucumber/cucumber";
import { expectIncluded } from "../harness/expected-found.js";
import { fillPlaceholders } from "./placeholders.js";
import { DEFAULT_AGENT, type LomiWorld } from "./world.js";

// Objects need the keys the step names (others may be anything), arrays the same length, leaves equality.
Then("the reply's data includes:", async function (this: LomiWorld, json: string) {
  const expected = await fillPlaceholders(this, DEFAULT_AGENT, json);
  expectIncluded("data", this.okData(), expected, { why: `${this.lastReply?.tool}'s reply` });
});
