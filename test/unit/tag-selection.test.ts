import assert from "node:assert/strict";
import { test } from "node:test";
import { checkTagSelection } from "../../harness/run/tag-selection.js";

const SCENARIOS = [{ tags: ["@IDEM-01", "@needs-crash"] }, { tags: ["@OP-05"] }, { tags: ["@IDEM-02"] }];

function refusedWith(expression: string): string {
  try {
    checkTagSelection(expression, SCENARIOS);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail(`--tags "${expression}" was not refused`);
}

test("a --tags that selects nothing suggests the expression meant: the @ added, the case mended, a misspelt tag matched", () => {
  assert.match(refusedWith("IDEM-01"), /^--tags "IDEM-01" selects no scenario; did you mean --tags "@IDEM-01"\?/);
  assert.match(refusedWith("IDEM-01 or OP-05"), /did you mean --tags "@IDEM-01 or @OP-05"\?/);
  assert.match(refusedWith("(@idem-02) and not needs-crash"), /did you mean --tags "\(@IDEM-02\) and not @needs-crash"\?/);
  assert.match(refusedWith("@IDEM01"), /did you mean --tags "@IDEM-01"\?/);
});

test("a --tags like no tag of the suite gets no suggestion, and one that selects something passes", () => {
  assert.doesNotMatch(refusedWith("@NOPE-99"), /did you mean/);
  assert.doesNotMatch(refusedWith("IDEM-01 and OP-05"), /did you mean/, "a mended expression that still selects nothing is no suggestion");
  assert.equal(checkTagSelection("@IDEM-01 or @OP-05", SCENARIOS), 2);
});
