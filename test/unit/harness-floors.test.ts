import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { kitPath } from "../../protocol/kit-root.js";

// harness/ is built in floors, each importing only from its own floor or those below (README's
// layout table says what each folder does): a newcomer reads it from the bottom up and never walks
// back and forth. Listed from the ground up; a folder or file of harness/ not listed fails the test.
const FLOORS: readonly (readonly string[])[] = [
  ["text", "harness-error.ts", "map-entry.ts", "rules.ts", "expected-found.ts", "history"],
  ["run"],
  ["contract-checks", "connection", "lomi", "oracles", "agents"],
  ["adapters", "driver", "authoring"],
  ["report"],
  ["compare", "shards", "verify", "record", "check"],
  ["explore"],
  ["suite"],
  ["commands", "cli.ts"],
];

const HARNESS = kitPath("harness");
const floorOf = new Map(FLOORS.flatMap((names, floor) => names.map((name) => [name, floor] as const)));
/** The folder of harness/ a file is in, or the file itself at harness/'s top. */
const placeOf = (file: string) => path.relative(HARNESS, file).split(path.sep)[0]!;

function sourcesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourcesIn(path.join(dir, e.name)) : /\.(ts|cjs|mjs)$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );
}

/** Every relative import of a harness file that lands in harness/ (static, dynamic and type-only alike). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)]
    .map((m) => path.resolve(path.dirname(file), m[1]!).replace(/\.js$/, ".ts"))
    .filter((target) => target.startsWith(HARNESS + path.sep));
}

const files = sourcesIn(HARNESS);
const edges = files.flatMap((from) => importsOf(from).map((to) => ({ from, to })));

test("every folder and file at harness/'s top has a floor", () => {
  const places = [...new Set(files.map(placeOf))].sort();
  assert.deepEqual(
    places.filter((p) => !floorOf.has(p)),
    [],
    "add the new folder to FLOORS and to README's layout table",
  );
});

/** The imports that point up a floor, as "from → to". */
const upward = (imports: ReadonlyArray<{ from: string; to: string }>) =>
  imports
    .filter(({ from, to }) => (floorOf.get(placeOf(to)) ?? 0) > (floorOf.get(placeOf(from)) ?? 0))
    .map(({ from, to }) => `${path.relative(HARNESS, from)} → ${path.relative(HARNESS, to)}`);

test("no import inside harness/ points up a floor", () => {
  assert.deepEqual(upward(edges), []);
  // The check sees one: report/ (the reports) importing suite/ (the runner above it).
  assert.deepEqual(upward([{ from: path.join(HARNESS, "report", "x.ts"), to: path.join(HARNESS, "suite", "y.ts") }]), [
    `report${path.sep}x.ts → suite${path.sep}y.ts`,
  ]);
});

test("the folders of harness/ import one another without a cycle", () => {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) if (placeOf(from) !== placeOf(to)) next.set(placeOf(from), (next.get(placeOf(from)) ?? new Set()).add(placeOf(to)));
  // Depth-first search: a folder met again while it is still on the path closes a cycle.
  const done = new Set<string>();
  const cycles: string[] = [];
  const visit = (place: string, trail: string[]) => {
    if (trail.includes(place)) return void cycles.push([...trail.slice(trail.indexOf(place)), place].join(" → "));
    if (done.has(place)) return;
    for (const to of next.get(place) ?? []) visit(to, [...trail, place]);
    done.add(place);
  };
  for (const place of next.keys()) visit(place, []);
  assert.deepEqual(cycles, []);
});
