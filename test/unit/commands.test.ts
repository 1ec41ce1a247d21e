import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { kitPath } from "../../protocol/kit-root.js";
import { readCommandLine } from "../../harness/commands/command-line.js";
import type { Command } from "../../harness/commands/declaration.js";
import { commandHelp, mainHelp } from "../../harness/commands/help.js";
import { UsageError } from "../../harness/commands/options.js";
import { RUN } from "../../harness/commands/run.js";
import { COMMANDS } from "../../harness/commands/table.js";
import { splitCommand } from "../../harness/text/command-line.js";

const ALL: readonly Command[] = [RUN, ...COMMANDS];
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const label = (c: Command) => c.name ?? "a conformance run";
const helpOf = (c: Command) => (c === RUN ? mainHelp(RUN, COMMANDS) : commandHelp(c));
const argvOf = (c: Command, ...rest: string[]) => (c.name === undefined ? rest : [c.name, ...rest]);
/** The options a help lists, one entry a line ("  --seed N  …", "  -h, --help  …"); prose that names another's is not an entry. */
const listed = (help: string) => new Set([...help.matchAll(/^ {2}(?:-\w, )?--([a-z-]+)/gm)].map((m) => m[1]!));

test("each command's help is its own: headed by its name, listing exactly the options it declares, --help with them", () => {
  for (const c of ALL) {
    const help = helpOf(c);
    assert.match(help, new RegExp(`^lomi-conformance${c.name ? ` ${c.name}` : ""} — ${escaped(c.summary)}\n`), label(c));
    assert.deepEqual([...listed(help)].sort(), [...Object.keys(c.options), "help"].sort(), `${label(c)}'s help lists its options and no other command's`);
    for (const e of c.examples) assert.ok(help.includes(e.line), `${label(c)}: ${e.line}`);
  }
});

test("the main help lists every command in one line, with its summary", () => {
  const help = mainHelp(RUN, COMMANDS);
  for (const c of COMMANDS) assert.match(help, new RegExp(`^ {2}lomi-conformance ${c.name}\\b.* {2}${escaped(c.summary)}$`, "m"), c.name);
});

test("an option of another command is refused (exit 2) naming whose it is and the command's own options", () => {
  for (const c of ALL)
    for (const other of ALL.filter((o) => o !== c))
      for (const [option, declared] of Object.entries(other.options)) {
        if (Object.hasOwn(c.options, option)) continue;
        const argv = argvOf(c, `--${option}`, ...(declared.value ? ["x"] : []));
        assert.throws(
          () => readCommandLine(argv),
          (e: unknown) => {
            assert.ok(e instanceof UsageError, argv.join(" "));
            assert.match(e.message, new RegExp(`^--${option} is not an option of ${label(c)} \\(it goes with [^)]*${label(other)}`), argv.join(" "));
            // A run's options are many: its --help lists them.
            if (c.name !== undefined)
              assert.ok(e.message.endsWith(`its options are ${[...Object.keys(c.options), "help"].map((o) => `--${o}`).join(", ")}`), e.message);
            return true;
          },
        );
      }
});

test("steps --retries 3 is refused, where it once ran the steps", () => {
  assert.throws(
    () => readCommandLine(["steps", "--retries", "3", "--broker-cmd", "x"]),
    (e: unknown) => e instanceof UsageError && e.message === "--retries is not an option of steps (it goes with a conformance run); its options are --help",
  );
});

test("each option's value is read once, by its declaration: typed, with defaults, or refused saying what it takes", () => {
  const run = readCommandLine([
    "--seed",
    "7",
    "--level",
    "should",
    "--shard",
    "2/3",
    "--header",
    "A: 1",
    "--header",
    "B: 2",
    "--broker-url",
    "http://127.0.0.1:3333/mcp",
  ]).parsed;
  assert.notEqual(run, "help");
  if (run === "help") return;
  assert.equal(run.values.seed, 7);
  assert.equal(run.values.level, "should");
  assert.deepEqual(run.values.shard, { index: 2, count: 3 });
  assert.deepEqual(run.values.header, ["A: 1", "B: 2"]);
  assert.equal((run.values["broker-url"] as URL).href, "http://127.0.0.1:3333/mcp");
  assert.equal(run.values["timeout-ms"], 10_000, "a default is read as a given value is");
  assert.deepEqual([...run.given].sort(), ["broker-url", "header", "level", "seed", "shard"]);
  for (const [argv, message] of [
    [["--seed", "x"], "--seed takes a whole number of 0 or more, not x"],
    [["--retries", "11"], "--retries takes a whole number from 0 to 10, not 11"],
    [["--level", "sometimes"], "--level must be must, should or may, not sometimes"],
    [["--broker-url", "file:///x"], "--broker-url takes an http(s) URL, such as http://127.0.0.1:3333/mcp, not file:///x"],
    [["explore", "--seed", String(2 ** 31)], `--seed takes a whole number from 0 to ${2 ** 31 - 1}, not ${2 ** 31}`],
    [["teeth", "--jobs"], "--jobs needs a value: --jobs N"],
    [["check", "h.jsonl", "--judge", "all"], "--judge must be broker, agents or both, not all"],
  ] as const)
    assert.throws(
      () => readCommandLine(argv),
      (e: unknown) => e instanceof UsageError && e.message === message,
      argv.join(" "),
    );
});

test("--help of any command is its help, whatever else the line holds", () => {
  for (const c of ALL) assert.equal(readCommandLine(argvOf(c, "--help")).parsed, "help", label(c));
  assert.equal(readCommandLine(["merge", "a", "-h"]).parsed, "help");
});

/** A documented command line, read as the CLI reads it: an environment assignment before it, a pipe or redirection after it, left out. */
const documented = (line: string) => {
  const words = splitCommand(line.replace(/\s+#\s.*$/, ""));
  const start = words.indexOf("lomi-conformance");
  const end = words.findIndex((w, i) => i > start && /^[|>]/.test(w));
  return words.slice(start + 1, end === -1 ? undefined : end);
};

test("every example a command's help gives reads as the command line it shows", () => {
  for (const c of ALL) for (const e of c.examples) assert.doesNotThrow(() => readCommandLine(documented(e.line)), e.line);
});

test("every one-line command in README.md and docs/ reads: the command reference names only options its commands take", () => {
  const files = [
    "README.md",
    ...readdirSync(kitPath("docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  const lines = files.flatMap((f) =>
    readFileSync(kitPath(f), "utf8")
      .split("\n")
      .flatMap((l) => (/^\s*npx lomi-conformance /.test(l) && !l.trimEnd().endsWith("\\") ? [{ f, l }] : [])),
  );
  assert.ok(lines.length > 30, `found ${lines.length}`);
  for (const { f, l } of lines) assert.doesNotThrow(() => readCommandLine(documented(l)), `${f}: ${l}`);
});
