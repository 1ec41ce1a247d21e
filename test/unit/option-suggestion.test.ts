import assert from "node:assert/strict";
import { test } from "node:test";
import { suggestOption, suggestWord } from "../../harness/text/option-suggestion.js";

const KNOWN = ["broker", "broker-cmd", "broker-url", "tags", "timeout-ms", "write-baseline", "baseline", "parallel"];

test("a misspelt option is matched to the one it most likely meant", () => {
  assert.equal(suggestOption("--tagz", KNOWN), "--tags");
  assert.equal(suggestOption("--brokr-url", KNOWN), "--broker-url");
  assert.equal(suggestOption("--timeout", KNOWN), "--timeout-ms");
  assert.equal(suggestOption("--paralel=2", KNOWN), "--parallel");
});

test("an option like none of them gets no suggestion", () => {
  assert.equal(suggestOption("--verbose", KNOWN), undefined);
});

test("a misspelt command is matched to the one it most likely meant", () => {
  const commands = ["steps", "explore", "check", "catalogue", "coverage", "teeth", "lint", "merge"];
  assert.equal(suggestWord("lnit", commands), "lint");
  assert.equal(suggestWord("covrage", commands), "coverage");
  assert.equal(suggestWord("catalog", commands), "catalogue");
  assert.equal(suggestWord("frobnicate", commands), undefined);
});
