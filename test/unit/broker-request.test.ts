import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { brokerRequestInit, HEADERS_ENV, parseHeader, readHeaderFile } from "../../harness/connection/broker-request.js";
import { withoutSecrets } from "../../harness/commands/options.js";

test("--header and --header-file: NAME:VALUE headers, a file's lines, comments and blanks skipped; a bad name or a line break refused", () => {
  assert.deepEqual(parseHeader("X-Api-Key: k 1", "--header #1"), ["X-Api-Key", "k 1"]);
  assert.deepEqual(parseHeader("X-Tenant:t1", "--header #1"), ["X-Tenant", "t1"]);
  assert.throws(() => parseHeader("no colon", "--header #2"), /--header #2: a header is NAME:VALUE/);
  assert.throws(() => parseHeader("Bad Name: v", "--header #3"), /not "Bad Name"/);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "lomi-headers-")), "gateway.headers");
  writeFileSync(file, "# the gateway's\n\nX-Api-Key: secret-1\r\nX-Tenant: t1\n");
  assert.deepEqual(readHeaderFile(file), [
    ["X-Api-Key", "secret-1"],
    ["X-Tenant", "t1"],
  ]);
  writeFileSync(file, "X-Api-Key: ok\nnot a header\n");
  assert.throws(() => readHeaderFile(file), new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2: a header is NAME:VALUE`));
  assert.throws(() => readHeaderFile(`${file}.missing`), /--header-file .*ENOENT|no such file/i);
});

test("every request to a broker at a URL carries the gateway's headers and the bearer token, from the environment workers inherit", () => {
  const saved = { token: process.env.LOMI_BROKER_TOKEN, headers: process.env[HEADERS_ENV] };
  try {
    delete process.env.LOMI_BROKER_TOKEN;
    delete process.env[HEADERS_ENV];
    assert.equal(brokerRequestInit(), undefined);
    process.env[HEADERS_ENV] = JSON.stringify({ "X-Api-Key": "secret-1" });
    process.env.LOMI_BROKER_TOKEN = "tok";
    assert.deepEqual(brokerRequestInit(), { headers: { "X-Api-Key": "secret-1", Authorization: "Bearer tok" } });
  } finally {
    for (const [k, v] of [
      ["LOMI_BROKER_TOKEN", saved.token],
      [HEADERS_ENV, saved.headers],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});

test("the command line a report shows hides the token and each header's value, in either spelling", () => {
  assert.deepEqual(
    withoutSecrets([
      "--broker-url",
      "http://h/mcp",
      "--broker-token",
      "tok",
      "--header",
      "X-Api-Key: secret-1",
      "--header=X-T:t",
      "--broker-token=tok2",
      "--header-file",
      "g.headers",
    ]),
    [
      "--broker-url",
      "http://h/mcp",
      "--broker-token",
      "***",
      "--header",
      "X-Api-Key:***",
      "--header=X-T:***",
      "--broker-token=***",
      "--header-file",
      "g.headers",
    ],
  );
});
