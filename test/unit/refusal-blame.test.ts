import assert from "node:assert/strict";
import { test } from "node:test";
import { runFeature } from "../support/run-feature.js";

// A broker's refusal of what a scenario needed is the broker's failure, said as such: it once read as
// the scenario's own mistake ("no lease named …", "the reply … was lost"). Here the reference broker
// refuses for real (a panel in another workspace, a terminal with no title), so the message is the one any broker gets.
const FEATURE = `Feature: refusals a later step needs
  @INPUT-16
  Scenario: a lease the broker refused
    Given the agent is connected to workspace "ws-mobile"
    And the agent refreshes the panels of workspace "ws-mobile"
    When the agent acquires the lease of Android panel "panel-pixel" in workspace "ws-alpha" as "pixel"
    And the agent taps (540, 1200) as input 1 under lease "pixel"

  @OP-05
  Scenario: an operation the broker refused
    Given the agent is connected to workspace "ws-alpha"
    When the agent creates a terminal "" in workspace "ws-alpha" as "first"
    And the agent reads operation "first"

  @OP-05
  Scenario: a refusal nobody checked
    Given the agent is connected to workspace "ws-alpha"
    When the agent creates a terminal "" in workspace "ws-alpha" as "first"
    And the agent creates a terminal "Tests" in workspace "ws-alpha" as "second"
`;

test("a refusal a later step needed is blamed on the broker with its code and message, addressed to both readers", async () => {
  const results = new Map((await runFeature(FEATURE)).results.map((r) => [r.name, r]));
  const lease = results.get("a lease the broker refused")!;
  assert.equal(lease.verdict, "fail");
  assert.match(lease.reason ?? "", /the broker refused the lease "pixel" with [A-Z_]+ \(".+"\); the scenario needs it granted/);
  assert.doesNotMatch(lease.reason ?? "", /no lease named/);
  const operation = results.get("an operation the broker refused")!;
  assert.equal(operation.verdict, "fail");
  assert.match(operation.reason ?? "", /the broker refused "first" \(lomi_terminal_create\) with [A-Z_]+ \(".+"\), so it has no operation/);
  assert.doesNotMatch(operation.reason ?? "", /was lost/);
  const unchecked = results.get("a refusal nobody checked")!;
  assert.match(
    unchecked.reason ?? "",
    /the broker refused a request this scenario expected it to take: lomi_terminal_create answered [A-Z_]+ .*Then the reply is the error/,
  );
});
