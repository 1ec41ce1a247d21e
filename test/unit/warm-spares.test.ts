import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { discardSpares, prepareSpares, takeSpare, type SpareWiring } from "../../harness/adapters/warm-spare.js";
import type { StdioProcessTransport } from "../../harness/adapters/stdio-process.js";
import { SimulatorFixture } from "../../harness/lomi/simulator-fixture.js";
import { readWorldFile } from "../../simulator/world-file.js";

const COMMAND = "node broker.js";

/** Launches that record their wiring and whether they were closed, in place of broker processes; `launched(n)` answers once n were launched. */
function launcher() {
  const started: Array<SpareWiring & { closed: boolean }> = [];
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  const launch = (wiring: SpareWiring) => {
    const entry = { ...wiring, closed: false };
    started.push(entry);
    for (const w of waiting.filter((x) => started.length >= x.n)) w.resolve();
    return {
      launch: async () => undefined,
      close: async () => {
        entry.closed = true;
      },
    } as unknown as StdioProcessTransport;
  };
  // A spare launches once its simulated Lomi listens: waited for as it happens, not polled against a clock.
  const launched = (n: number) => (started.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve })));
  return { started, launch, launched };
}

const scenarioSimulator = () => SimulatorFixture.start(readWorldFile(), 7, { kind: "fresh-port" });

test("two spares are under way at once, each against the simulated Lomi the next scenarios take, in their order", async (t) => {
  t.after(async () => {
    await discardSpares();
    await SimulatorFixture.closeShared();
  });
  const { started, launch, launched } = launcher();
  // The spares taken keep their store directories, as an adapter would until its scenario ends.
  t.after(() => started.forEach((s) => rmSync(path.dirname(s.storePath), { recursive: true, force: true })));
  prepareSpares(COMMAND, 1, launch);
  prepareSpares(COMMAND, 1, launch); // topped up to two, not four
  await launched(2);
  // Asking for a spare no one started waits for every spare under way and hands none out: all have launched by then.
  assert.equal(await takeSpare("node other-broker.js", "http://127.0.0.1:9"), undefined);
  assert.equal(started.length, 2);
  assert.notEqual(started[0]!.seed, started[1]!.seed, "each spare has a seed of its own");

  const first = await scenarioSimulator();
  assert.equal(first.url, started[0]!.nativeUrl);
  const spare = await takeSpare(COMMAND, first.url);
  assert.equal(spare?.nativeUrl, started[0]!.nativeUrl);
  assert.equal(started[1]!.closed, false, "the second spare waits for its scenario");
  await first.stop();

  // A scenario that starts no broker takes the second simulator: its spare is ended when the next scenario takes its own.
  const noBroker = await scenarioSimulator();
  assert.equal(noBroker.url, started[1]!.nativeUrl);
  prepareSpares(COMMAND, 2, launch);
  await launched(3);
  const third = await scenarioSimulator();
  assert.equal((await takeSpare(COMMAND, third.url))?.nativeUrl, started[2]!.nativeUrl);
  assert.equal(started[1]!.closed, true);
  assert.equal(existsSync(path.dirname(started[1]!.storePath)), false, "an ended spare's store directory is removed");
  await noBroker.stop();
  await third.stop();

  // Another command's spare is never handed out; what nobody took is ended at the end.
  prepareSpares(COMMAND, 3, launch);
  await launched(5);
  const fourth = await scenarioSimulator();
  assert.equal(await takeSpare("node other-broker.js", fourth.url), undefined);
  await fourth.stop();
  await discardSpares();
  assert.ok(
    started.every((s, i) => s.closed || i === 0 || i === 2),
    JSON.stringify(started.map((s) => s.closed)),
  );
});

test("a run that says how many scenarios this process starts gets no spare past the last of them", async (t) => {
  t.after(async () => {
    await discardSpares();
    await SimulatorFixture.closeShared();
  });
  const { started, launch, launched } = launcher();
  t.after(() => started.forEach((s) => rmSync(path.dirname(s.storePath), { recursive: true, force: true })));
  // Three scenarios in all: the first starts a spare for each of the two after it.
  prepareSpares(COMMAND, 1, launch, 3);
  await launched(2);
  const second = await scenarioSimulator();
  assert.equal((await takeSpare(COMMAND, second.url))?.nativeUrl, started[0]!.nativeUrl);
  prepareSpares(COMMAND, 2, launch, 3);
  const third = await scenarioSimulator();
  assert.equal((await takeSpare(COMMAND, third.url))?.nativeUrl, started[1]!.nativeUrl);
  prepareSpares(COMMAND, 3, launch, 3);
  // Every spare under way has launched once a spare no one started is asked for: none was started for a fourth scenario.
  assert.equal(await takeSpare("node other-broker.js", "http://127.0.0.1:9"), undefined);
  assert.equal(started.length, 2);
  await second.stop();
  await third.stop();
});
