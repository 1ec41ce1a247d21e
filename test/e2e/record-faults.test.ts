import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { MUTANT_AGENTS } from "../../examples/agents/mutant-agents.js";
import { ReferenceAgent } from "../../examples/agents/reference-agent.js";
import { readHistory } from "../../harness/history/format.js";
import { SimControl } from "../../harness/lomi/sim-control.js";
import { check, recorderArgs, startAnnouncing, stdioSession, stop } from "../support/recorder.js";

const FAULTS = "lose-reply:lomi_terminal_run,restart:lomi_terminal_run#3,lose-reply:lomi_file_write,hold:lomi_terminal_create";

/**
 * A simulated Lomi of its own (so a broker restart keeps Lomi's world, as a real Lomi would), on
 * real time, and its user: the first decision denied, the rest approved, every maintenance approved.
 */
async function lomiWithUser() {
  const sim = await startAnnouncing(["bin/lomi-sim.js", "serve", "--port", "0", "--approve-pairings", "--clock", "real"], /listening on (http:\S+)/, "stdout");
  const lomi = new SimControl(sim.url);
  let denials = 1;
  let stopped = false;
  const user = (async () => {
    while (!stopped) {
      for (const d of await lomi.decisions()) await lomi.decideOperation(d.operationId, denials-- > 0 ? "deny" : "approve");
      for (const a of (await lomi.approvals()).filter((x) => x.state === "pending")) await lomi.decideApproval(a.approvalId, "approve");
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    url: sim.url,
    stop: async () => {
      stopped = true;
      await user;
      await stop(sim.child);
    },
  };
}

/** One agent's session through `record --faults` in front of the reference broker over stdio; answers the history file. */
async function recordSession(agent: string, run: (s: Awaited<ReturnType<typeof stdioSession>>) => Promise<void>): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-record-faults-"));
  const history = path.join(dir, "session.jsonl");
  const lomi = await lomiWithUser();
  try {
    const broker = ["bin/lomi-broker.js", "--native-url", lomi.url, "--store", path.join(dir, "receipts.sqlite"), "--store-limit", "10"];
    const session = await stdioSession(agent, recorderArgs(history, broker, ["--faults", FAULTS, "--seed", "3", "--lomi-control", lomi.url]));
    try {
      await run(session);
    } finally {
      await session.client.close();
    }
  } finally {
    await lomi.stop();
  }
  return history;
}

test("the reference agent through record --faults (a lost reply, a restart, a lost write, a held creation) against the reference broker: no violation on either side", async () => {
  const history = await recordSession("lomi-reference-agent", (s) => new ReferenceAgent(s.client).run());
  const injected = readHistory(history).records.flatMap((r) =>
    r.type === "fault" && r.detail.injectedBy === "record --faults" ? [`${r.kind} ${String(r.detail.item)} seed ${String(r.detail.seed)}`] : [],
  );
  assert.deepEqual(injected, [
    "hold hold:lomi_terminal_create seed 3",
    "release hold:lomi_terminal_create seed 3",
    "lose-reply lose-reply:lomi_terminal_run seed 3",
    "broker-crash restart:lomi_terminal_run#3 seed 3",
    "lose-reply lose-reply:lomi_file_write seed 3",
  ]);
  const judged = check(history);
  assert.equal(judged.code, 0, judged.stdout + judged.stderr);
  assert.match(judged.stdout, /\nbroker: no violation; agent lomi-reference-agent 1\.0\.0: no violation\n/);
  assert.match(judged.stdout, /PASS AGENT-08 \(SHOULD\): its situation arose 3 times: kept 3/);
  assert.match(
    judged.stdout,
    /PASS AGENT-07 \(SHOULD\): its situation arose 1 time: kept 1/,
    "the restart left the build outcome_unknown, and the agent looked",
  );
});

test("a mutant agent through record --faults: check fails exactly its rule, naming the records", async () => {
  const m = MUTANT_AGENTS.find((x) => x.name === "fresh-key-after-lost-reply")!;
  const history = await recordSession(m.name, (s) => m.make(s.client, {}).run());
  const judged = check(history);
  assert.equal(judged.code, 1, judged.stdout);
  assert.match(
    judged.stdout,
    /\nbroker: no violation; agent fresh-key-after-lost-reply 1\.0\.0: AGENT-08 violated at records \d+(, |–)\d+, AGENT-11 violated at records \d+(, |–)\d+\n/,
  );
  assert.deepEqual(
    [...judged.stdout.matchAll(/^ {4}FAIL (AGENT-\d+)/gm)].map((x) => x[1]),
    m.breaks,
  );
});
