import assert from "node:assert/strict";
import { test } from "node:test";
import { chooseScenarios } from "../../harness/run/scenario-choice.js";
import { isFeaturePlace } from "../../harness/commands/run.js";
import type { ScenarioEntry } from "../../harness/run/feature-catalogue.js";
import { HarnessError } from "../../harness/harness-error.js";

const ROOT = "/kit";
const CATALOGUE: ScenarioEntry[] = [
  { uri: "features/retry.feature", name: "A retry returns the prior operation", tags: ["@IDEM-01"], line: 8, fileLines: 30 },
  { uri: "features/retry.feature", name: "A changed payload is a conflict", tags: ["@IDEM-02"], line: 15, fileLines: 30 },
  { uri: "features/retry.feature", name: "A retry after a crash is outcome_unknown", tags: ["@DUR-03", "@needs-crash"], line: 24, fileLines: 30 },
  { uri: "features/cancel.feature", name: "A queued operation cancels with nothing done", tags: ["@CANCEL-01"], line: 5 },
];

const choose = (c: Partial<Parameters<typeof chooseScenarios>[0]>) => chooseScenarios({ places: [], name: undefined, tags: undefined, ...c }, CATALOGUE, ROOT);
const names = (c: Partial<Parameters<typeof chooseScenarios>[0]>) =>
  [...(choose(c)?.keys ?? [])].map((k) => k.slice(k.indexOf(".feature:") + ".feature:".length)).sort();
/** A refusal is a configuration error (exit 2) whose message matches. */
const refused = (c: Partial<Parameters<typeof chooseScenarios>[0]>, message: RegExp) =>
  assert.throws(
    () => choose(c),
    (e: unknown) => e instanceof HarnessError && e.kind === "config" && message.test(e.message),
  );

test("FILE:LINE chooses the scenario starting at the line or the one the line lies within; a file alone, all of its scenarios", () => {
  assert.deepEqual(names({ places: ["features/retry.feature:15"] }), ["A changed payload is a conflict"]);
  assert.deepEqual(names({ places: ["features/retry.feature:20"] }), ["A changed payload is a conflict"]);
  assert.deepEqual(names({ places: ["features/retry.feature:8:24"] }), ["A retry after a crash is outcome_unknown", "A retry returns the prior operation"]);
  assert.deepEqual(names({ places: ["/kit/features/cancel.feature"] }), ["A queued operation cancels with nothing done"]);
  assert.deepEqual(names({ places: ["cancel.feature:5"] }), ["A queued operation cancels with nothing done"]);
  assert.equal(choose({ places: ["features/retry.feature:15"] })?.label, "features/retry.feature:15");
  assert.equal(choose({ tags: "@IDEM-01" }), undefined, "--tags alone is the tags' selection, chosen by no name");
});

test("FILE:LINE chooses that file's scenario, not one of the same name in another file", () => {
  const twins: ScenarioEntry[] = [...CATALOGUE, { uri: "features/cancel.feature", name: "A changed payload is a conflict", tags: ["@CANCEL-02"], line: 9 }];
  const keys = [...(chooseScenarios({ places: ["features/cancel.feature:9"], name: undefined, tags: undefined }, twins, ROOT)?.keys ?? [])];
  assert.deepEqual(keys, ["features/cancel.feature:A changed payload is a conflict"]);
});

test("--name is a regular expression on the names, narrowed by --tags and by FILE:LINE", () => {
  assert.deepEqual(names({ name: "^A retry" }), ["A retry after a crash is outcome_unknown", "A retry returns the prior operation"]);
  assert.deepEqual(names({ name: "^A retry", tags: "not @needs-crash" }), ["A retry returns the prior operation"]);
  assert.deepEqual(names({ name: "retry", places: ["features/retry.feature:24"] }), ["A retry after a crash is outcome_unknown"]);
  assert.equal(choose({ name: "conflict", tags: "@IDEM-02" })?.label, '--name "conflict"');
  assert.deepEqual(
    names({
      among: {
        keys: new Set(["features/retry.feature:A changed payload is a conflict", "features/cancel.feature:A queued operation cancels with nothing done"]),
        label: "rerun",
      },
      places: ["features/cancel.feature"],
    }),
    ["A queued operation cancels with nothing done"],
  );
});

test("a choice that matches nothing is refused with what is near: a file, a line, a name, or the --tags that leave nothing", () => {
  refused({ places: ["features/retyr.feature:8"] }, /no such feature file in the suite; the nearest: features\/retry.feature/);
  refused({ places: ["features/retry.feature:3"] }, /is not within a scenario; the scenarios of features\/retry.feature start at lines 8, 15, 24/);
  // Past the file's end: no scenario, not the last one.
  assert.deepEqual(
    names({ places: ["features/retry.feature:30"] }),
    ["A retry after a crash is outcome_unknown"],
    "the file's last line is within its last scenario",
  );
  refused(
    { places: ["features/retry.feature:31"] },
    /^features\/retry.feature:31 is past the end of features\/retry.feature \(30 lines\); its scenarios start at lines 8, 15, 24$/,
  );
  refused({ name: "confilct" }, /--name "confilct" matches no scenario's name; the nearest: "A changed payload is a conflict"/);
  refused({ name: "(" }, /is not a regular expression/);
  refused({ name: "conflict", tags: "@CANCEL-01" }, /within --tags "@CANCEL-01" chooses no scenario; 1 scenario\(s\) match without --tags/);
});

test("only .feature words, with or without lines, are places: any other word stays a command", () => {
  assert.ok(isFeaturePlace("features/x.feature:12:40"));
  assert.ok(isFeaturePlace("x.feature"));
  assert.ok(!isFeaturePlace("steps"));
  assert.ok(!isFeaturePlace("x.feature:abc"));
});
