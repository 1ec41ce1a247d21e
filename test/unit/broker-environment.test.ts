import assert from "node:assert/strict";
import { test } from "node:test";
import { brokerEnvironment } from "../../harness/adapters/child-process.js";
import { shellSyntaxIn, splitCommand } from "../../harness/text/command-line.js";
import { USER_NODE_OPTIONS } from "../../harness/run/step-files.js";

const wiring = { nativeUrl: "http://127.0.0.1:4545", storePath: "/tmp/s/receipts.sqlite", seed: 7, faults: ["crash-after-reserve" as const] };

test("a broker gets the environment contract, its seed moved on by each start", () => {
  const env = brokerEnvironment(wiring, 2);
  assert.equal(env.LOMI_NATIVE_URL, wiring.nativeUrl);
  assert.equal(env.LOMI_STORE_PATH, wiring.storePath);
  assert.equal(env.LOMI_SEED, "9");
  assert.equal(env.LOMI_BROKER_FAULTS, "crash-after-reserve");
});

test("a broker gets NODE_OPTIONS as the user gave them, not the options the harness added for its workers", () => {
  const saved = { node: process.env.NODE_OPTIONS, user: process.env[USER_NODE_OPTIONS] };
  try {
    process.env[USER_NODE_OPTIONS] = "--max-old-space-size=512";
    process.env.NODE_OPTIONS = "--max-old-space-size=512 --enable-source-maps";
    const env = brokerEnvironment(wiring, 0);
    assert.equal(env.NODE_OPTIONS, "--max-old-space-size=512");
    assert.equal(env[USER_NODE_OPTIONS], undefined, "the harness's bookkeeping stays in the harness");
    // Not run through the suite (the harness never added anything): NODE_OPTIONS pass through.
    delete process.env[USER_NODE_OPTIONS];
    assert.equal(brokerEnvironment(wiring, 0).NODE_OPTIONS, "--max-old-space-size=512 --enable-source-maps");
  } finally {
    for (const [k, v] of [
      ["NODE_OPTIONS", saved.node],
      [USER_NODE_OPTIONS, saved.user],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});

test("a command line splits on spaces and keeps quoted words together", () => {
  assert.deepEqual(splitCommand(`node "my broker.js" --flag 'a b'`), ["node", "my broker.js", "--flag", "a b"]);
});

test("a command line with shell syntax is refused with the sh -c form that does what it meant; quoted words and sh -c lines pass", () => {
  const refused = [
    ["node broker.mjs > log.txt", '">" (a redirection in a shell)', `--broker-cmd "sh -c 'node broker.mjs > log.txt'"`],
    ["node broker.mjs 2>>err.log", '"2>>err.log" (a redirection in a shell)', `sh -c 'node broker.mjs 2>>err.log'`],
    ["node broker.mjs | tee out", '"|" (a pipe in a shell)', `sh -c 'node broker.mjs | tee out'`],
    ["npm run build && node dist/broker.js", '"&&" (a command list in a shell)', `sh -c 'npm run build && node dist/broker.js'`],
    [
      "LOG=debug DEBUG=1 node broker.mjs",
      '"LOG=debug" (a variable assignment in a shell)',
      `or set the variables with env: --broker-cmd "env LOG=debug DEBUG=1 node broker.mjs"`,
    ],
    ["node $HOME/broker.mjs --name 'it's'", '"$HOME/broker.mjs" (an expansion in a shell)', `sh -c "node $HOME/broker.mjs --name 'it's'"`],
    ["~/bin/broker --stdio", '"~/bin/broker" (a home directory (~) in a shell)', "sh -c '~/bin/broker --stdio'"],
  ];
  for (const [line, word, form] of refused) {
    const why = shellSyntaxIn(line!) ?? "";
    assert.ok(why.includes(word!), `${line}: ${why}`);
    assert.ok(why.includes(form!), `${line}: ${why}`);
  }
  for (const line of [
    `sh -c 'node broker.mjs > log.txt'`,
    `node broker.mjs --url "http://x/?a=1&b=2" --x=1`,
    `node "a|b.mjs" --level=debug`,
    "env LOG=debug node broker.mjs",
    "python3 -m broker",
  ])
    assert.equal(shellSyntaxIn(line), undefined, line);
});

test("npm, as a broker command reaches it, is offline and never answers yes: npx runs only what the user's repository installed", () => {
  const saved = { offline: process.env.npm_config_offline, yes: process.env.npm_config_yes };
  try {
    process.env.npm_config_yes = "true"; // a CI runner that silenced npx's prompt
    delete process.env.npm_config_offline;
    const env = brokerEnvironment(wiring, 0);
    assert.equal(env.npm_config_offline, "true");
    assert.equal(env.npm_config_yes, "false");
  } finally {
    for (const [k, v] of [
      ["npm_config_offline", saved.offline],
      ["npm_config_yes", saved.yes],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});
