import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { UrlAdapter } from "../../harness/adapters/url.js";
import { scenarioCatalogue } from "../../harness/run/feature-catalogue.js";
import { freePort } from "../../harness/adapters/free-port.js";
import { SimulatorFixture } from "../../harness/lomi/simulator-fixture.js";
import { readWorldFile } from "../../simulator/world-file.js";
import { COMBINED, ON_THE_WHOLE_SUITE } from "../../variants/index.js";
import { conformance, withHttpBroker } from "../support/runs.js";
import { BUDGET_MS, TIMEOUT_ARGS } from "../support/budget.js";

interface Report {
  verdict: string;
  scenarios: { notApplicable: number; fail: number };
  rules: Array<{ id: string; verdict: string; reason?: string; scenarios: Array<{ name: string; verdict: string; reason?: string }> }>;
}

/** What a broker that keeps running cannot do for the harness. */
const OUT_OF_REACH =
  /cannot be crashed and restarted by the harness|has no fault hooks|keeps one store for every scenario|cannot start a second instance of itself/;

// The broker at the URL is the reference broker with every legal variant combined (variants/), run on
// the scenarios its parts touch and on those a URL cannot judge (crashes, fault hooks, an own store):
// it judges the URL adapter's profile and shows no legal choice fails there. (The whole suite at a URL
// took a fifth of npm test's ten minutes; test:features runs the whole suite in-process.)
const URL_TAGS = [...new Set([...ON_THE_WHOLE_SUITE.flatMap((v) => v.touches.split(" or ")), "@DUR-01", "@CAP-01", "@needs-crash", "@needs-faults"])].join(
  " or ",
);

test(`--broker-url against a correct broker over HTTP (${COMBINED.difference}): conformant over its profile, crash, fault-hook and own-store rules named as not judged; a second run against the same broker too`, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-url-"));
  const nativePort = await freePort();
  // A running broker can be neither crashed nor armed with fault hooks by the harness.
  const tagged = scenarioCatalogue()
    .filter((s) => s.tags.includes("@needs-crash") || s.tags.includes("@needs-faults"))
    .map((s) => s.name);
  await withHttpBroker(["variants/lomi-variant.js", COMBINED.name], nativePort, dir, async (url) => {
    const reports = path.join(dir, "full");
    const full = await conformance(["--broker-url", url, "--native-port", String(nativePort), "--tags", URL_TAGS, ...TIMEOUT_ARGS, "--reports", reports]);
    const report = JSON.parse(readFileSync(path.join(reports, "conformance.json"), "utf8")) as Report;
    assert.equal(full.code, 0, `conformant over its profile: every rule it could judge passed\n${full.output.slice(-3000)}`);
    assert.match(full.output, /CONFORMANT over HTTP at a URL: \d+ of \d+ MUST rules judged(, \d+ of them in part [^;]*)?; not judged here: .*DUR-01/);
    assert.equal(report.scenarios.fail, 0, full.output.slice(-3000));
    const na = new Map(
      report.rules
        .flatMap((r) => r.scenarios)
        .filter((x) => x.verdict === "not-applicable")
        .map((x) => [x.name, x.reason ?? ""]),
    );
    assert.equal(report.scenarios.notApplicable, na.size);
    for (const name of tagged) assert.ok(na.has(name), `"${name}" needs a crash or fault hooks, so it does not apply`);
    for (const [name, reason] of na) assert.match(reason, OUT_OF_REACH, name);
    const naRules = report.rules.filter((r) => r.verdict === "not-applicable");
    for (const r of naRules) assert.match(r.reason ?? "", OUT_OF_REACH, r.id);
    assert.deepEqual(
      report.rules.filter((r) => !["pass", "not-applicable", "not-selected"].includes(r.verdict)).map((r) => r.id),
      [],
    );
    assert.ok(report.rules.filter((r) => r.verdict === "pass").length >= 10, "the variants' scenarios were judged, not only named");
    assert.match(full.output, /NOT JUDGED HERE DUR-01: .*cannot be crashed/);
    assert.match(full.output, /NOT JUDGED HERE CAP-01: .*keeps one store for every scenario/);

    // The same long-running broker, a new run: its old pairings and receipts must not leak in.
    const again = await conformance([
      "--broker-url",
      url,
      "--native-port",
      String(nativePort),
      "--tags",
      "@EVT-02 or @AUTH-05 or @EPOCH-04",
      ...TIMEOUT_ARGS,
      "--reports",
      path.join(dir, "again"),
    ]);
    assert.equal(again.code, 0, again.output.slice(-3000));
  });
});

test("the URL adapter holds several MCP sessions at once, each its own connection of the broker", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-url-sessions-"));
  const nativePort = await freePort();
  await withHttpBroker(["bin/lomi-broker.js"], nativePort, dir, async (url) => {
    const adapter = new UrlAdapter(new URL(url), nativePort, BUDGET_MS);
    await SimulatorFixture.start({ ...readWorldFile(), autoApprovePairings: true }, 1, adapter.simulator);
    try {
      const [a, b] = await Promise.all([adapter.connect("agent"), adapter.connect("agent")]);
      const [ca, cb] = await Promise.all([a.call("lomi_connect", { workspaceId: "ws-alpha" }), b.call("lomi_connect", { workspaceId: "ws-alpha" })]);
      const id = (r: typeof ca) => (r.envelope.status === "ok" ? (r.envelope.data as { connectionId: string }).connectionId : r.envelope.code);
      assert.match(id(ca), /^conn-/);
      assert.match(id(cb), /^conn-/);
      assert.notEqual(id(ca), id(cb), "two sessions, two connections");
    } finally {
      await adapter.stop();
      await SimulatorFixture.closeShared();
    }
  });
});

/** Every file under a folder, read as text. */
const filesUnder = (dir: string): Array<[string, string]> =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((e) =>
    e.isFile() ? [[path.join(e.parentPath, e.name), readFileSync(path.join(e.parentPath, e.name), "utf8")] as [string, string]] : [],
  );

test("--broker-token, --header and --header-file: a broker behind a token is judged with them, and refuses a run without; no report, history or line printed holds a secret", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-url-token-"));
  const nativePort = await freePort();
  await withHttpBroker(["bin/lomi-broker.js", "--token", "kit-token"], nativePort, dir, async (url) => {
    const withToken = await conformance([
      "--broker-url",
      url,
      "--native-port",
      String(nativePort),
      "--broker-token",
      "kit-token",
      "--tags",
      "@SCH-06",
      "--reports",
      path.join(dir, "with"),
    ]);
    assert.equal(withToken.code, 0, withToken.output.slice(-3000));
    const without = await conformance(["--broker-url", url, "--native-port", String(nativePort), "--tags", "@SCH-06", "--reports", path.join(dir, "without")]);
    assert.notEqual(without.code, 0);
    assert.match(without.output, /401|Unauthorized/);
    // A gateway's headers: the file's Authorization is what lets the run in; the other header goes along, as secret.
    const headerFile = path.join(dir, "gateway.headers");
    writeFileSync(headerFile, "# what the gateway wants\nAuthorization: Bearer kit-token\n");
    const viaHeaders = await conformance([
      "--broker-url",
      url,
      "--native-port",
      String(nativePort),
      "--header-file",
      headerFile,
      "--header",
      "X-Gateway-Tenant: tenant-secret",
      "--tags",
      "@SCH-06",
      "--reports",
      path.join(dir, "headers"),
    ]);
    assert.equal(viaHeaders.code, 0, viaHeaders.output.slice(-3000));
    for (const [run, reports] of [
      [withToken, "with"],
      [viaHeaders, "headers"],
    ] as const) {
      assert.doesNotMatch(run.output, /kit-token|tenant-secret/);
      for (const [file, text] of filesUnder(path.join(dir, reports))) assert.doesNotMatch(text, /kit-token|tenant-secret/, file);
    }
    assert.match(
      readFileSync(path.join(dir, "headers", "conformance.json"), "utf8"),
      /--header X-Gateway-Tenant:\*\*\*/,
      "the command line says a header was given, not its value",
    );
  });
});
