import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { kitPath } from "../../protocol/kit-root.js";
import { parse } from "yaml";
import { loadWorkflow } from "../support/workflow-steps.js";

const RECIPE = "examples/ci/lomi-conformance.yml";
const MATRIX = "examples/ci/lomi-conformance-matrix.yml";
const ACTION_RECIPE = "examples/ci/lomi-conformance-action.yml";

for (const recipe of [RECIPE, MATRIX, ACTION_RECIPE]) {
  test(`docs/implementers.md shows ${recipe} exactly as the file the end-to-end test runs`, () => {
    const doc = readFileSync(kitPath("docs/implementers.md"), "utf8");
    const block = new RegExp(`<!-- recipe:start ${recipe.replace(/[.]/g, "\\.")}[^>]*-->\\n\`\`\`yaml\\n([\\s\\S]*?)\`\`\`\\n<!-- recipe:end -->`).exec(
      doc,
    )?.[1];
    assert.ok(block !== undefined, `docs/implementers.md has no block of ${recipe} between its markers`);
    assert.equal(block, readFileSync(kitPath(recipe), "utf8"), `the block in docs/implementers.md differs from ${recipe}: copy the file into it`);
  });
}

test("the matrix recipe: every shard and part on one seed, their reports uploaded whatever happened, a merge after failed jobs too", () => {
  const shard = loadWorkflow(kitPath(MATRIX), "shard");
  const explore = loadWorkflow(kitPath(MATRIX), "explore");
  const merge = loadWorkflow(kitPath(MATRIX), "merge");
  const count = (job: typeof shard, key: string) => job.job.strategy?.matrix[key]?.length;
  const run = (job: typeof shard, name: string) => job.steps.find((s) => s.name === name)?.run ?? "";
  assert.ok(run(shard, "Conformance shard").includes(`--shard "\${{ matrix.shard }}/${count(shard, "shard")}"`), "the shard count in --shard is the matrix's");
  assert.ok(run(explore, "Explore part").includes(`--shard "\${{ matrix.part }}/${count(explore, "part")}"`), "the part count in --shard is the matrix's");
  for (const job of [shard, explore]) {
    assert.match(
      Object.values(job.steps)
        .map((s) => s.run ?? "")
        .join("\n"),
      /--seed "\$LOMI_SEED"/,
    );
    assert.equal(job.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"))?.if, "always()", "a part's reports are uploaded after its failure too");
  }
  assert.deepEqual(merge.job.needs, ["shard", "explore"]);
  assert.equal(merge.job.if, "always()");
  assert.match(run(merge, "Merge the shards"), /lomi-conformance merge parts\/shard-\*/);
});

test("the CI recipe gates on the whole suite with fault hooks, two workers and the committed baseline, and keeps its reports whatever happened", () => {
  const { env, steps } = loadWorkflow(kitPath(RECIPE));
  assert.equal(env.LOMI_TAGS, "", "the gate runs the whole suite unless the team says otherwise");
  const gate = steps.find((s) => s.name === "Conformance")?.run ?? "";
  for (const option of ["--broker-faults", "--parallel 2", "--baseline conformance-baseline.json", "--reports reports"])
    assert.ok(gate.includes(option), `the Conformance step lacks ${option}`);
  for (const name of ["Summary", "Comment on the pull request"])
    assert.match(steps.find((s) => s.name === name)?.if ?? "", /^always\(\)/, `${name} must run after a failed gate`);
  assert.match(
    steps.find((s) => s.name === "Comment on the pull request")?.if ?? "",
    /head\.repo\.full_name == github\.repository/,
    "no comment from a fork's read-only token",
  );
});

test('docs/implementers.md\'s "The GitHub Action" explains every input and output action.yml declares, and no other', () => {
  const action = parse(readFileSync(kitPath("action.yml"), "utf8")) as { inputs: Record<string, { default?: string }>; outputs: Record<string, unknown> };
  const doc = readFileSync(kitPath("docs/implementers.md"), "utf8");
  const start = doc.indexOf("## The GitHub Action");
  assert.notEqual(start, -1, "docs/implementers.md has the section action.yml points to");
  const section = doc.slice(start, doc.indexOf("\n## ", start + 1));
  // A table row's first cell: `name` (or several, comma-separated).
  const rows = (heading: string) => {
    const table = section.slice(section.indexOf(heading));
    return table
      .slice(0, table.indexOf("\n\n", table.indexOf("|---")))
      .split("\n")
      .filter((l) => l.startsWith("| `"));
  };
  const named = (lines: string[]) => lines.flatMap((l) => [...l.split("|")[1]!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!));
  assert.deepEqual(named(rows("| input |")).sort(), Object.keys(action.inputs).sort());
  assert.deepEqual(named(rows("| output |")).sort(), Object.keys(action.outputs).sort());
  for (const line of rows("| input |")) {
    const name = /`([a-z-]+)`/.exec(line)![1]!;
    const shown = line.split("|")[2]!.trim().replace(/`/g, "");
    assert.equal(shown, String(action.inputs[name]!.default ?? ""), `the default the docs give ${name}`);
  }
});
