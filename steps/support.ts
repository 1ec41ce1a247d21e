import { After, AfterAll, Before, defineParameterType, setDefaultTimeout, setDefinitionFunctionWrapper, setWorldConstructor, Status } from "@cucumber/cucumber";
import { CAPABILITIES, capabilityTag, WHY_NOT } from "../harness/run/capabilities.js";
import { discardSpares } from "../harness/adapters/warm-spare.js";
import { HarnessError, violation } from "../harness/harness-error.js";
import { FAILURE_CONTEXT_FILE, failureContextOf, MAX_EXCHANGES } from "../harness/report/failure-context.js";
import {
  BLAME_MEDIA_TYPE,
  historyJudgement,
  ORACLE_FILE,
  ORACLE_MEDIA_TYPE,
  ORACLE_UNKNOWN_MEDIA_TYPE,
  TRIGGERS_MEDIA_TYPE,
  VERDICT_MEDIA_TYPE,
  type BlameAttachment,
  type VerdictAttachment,
} from "../harness/report/attachments.js";
import { formatHistory, historyFileName } from "../harness/history/format.js";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SimulatorFixture } from "../harness/lomi/simulator-fixture.js";
import { attemptSeed, runParametersSchema } from "../harness/run/run-parameters.js";
import { citedRules, loadRules } from "../harness/rules.js";
import { CATALOGUE } from "../protocol/catalogue.js";
import { CANCEL_OUTCOMES } from "../protocol/tools/operation.js";
import { z } from "zod";
import { ERROR_CODES } from "../protocol/errors.js";
import { EFFECT_STATES, effectStateSchema, OPERATION_STATES, operationStateSchema } from "../protocol/states.js";
import { DEFAULT_AGENT, forgetBrokerIdentity, LomiWorld } from "./world.js";

setWorldConstructor(LomiWorld);

// Each broker call keeps --timeout-ms, so a hung broker fails its call, not the run. A step's own
// budget only backs that up, and must cover the longest correct path: waiting for the operations to
// settle, restarting a one-connection broker for another agent, then its call (each ≤ --timeout-ms).
const timeoutMs = Number(process.env.LOMI_STEP_TIMEOUT_MS ?? runParametersSchema.parse({}).timeoutMs);
setDefaultTimeout(3 * timeoutMs + 5_000);

/** Tells the report why a scenario did not apply, or that the harness stopped it (a typed attachment). */
function attachVerdict(world: LomiWorld, verdict: VerdictAttachment): void {
  world.attach(JSON.stringify(verdict), VERDICT_MEDIA_TYPE);
}

/**
 * A step or hook that meets a broker it cannot judge reports "not applicable" with the reason; a
 * violation that knows its rules attaches them, so the report blames those (never a rule ID read
 * from a message).
 */
setDefinitionFunctionWrapper((fn: (...args: unknown[]) => unknown) => {
  const wrapped = async function (this: LomiWorld, ...args: unknown[]) {
    try {
      return await fn.apply(this, args);
    } catch (error) {
      if (error instanceof HarnessError && error.kind === "not-applicable") {
        attachVerdict(this, { kind: "not-applicable", reason: error.message });
        return "skipped";
      }
      if (error instanceof HarnessError && error.kind === "harness") attachVerdict(this, { kind: "harness-fault", reason: error.message });
      if (error instanceof HarnessError && error.kind === "violation" && error.unjudged)
        this.attach(JSON.stringify({ rules: [], unjudged: error.unjudged } satisfies BlameAttachment), BLAME_MEDIA_TYPE);
      else if (error instanceof HarnessError && error.kind === "violation" && error.rules.length > 0)
        this.attach(JSON.stringify({ rules: [...error.rules] } satisfies BlameAttachment), BLAME_MEDIA_TYPE);
      throw error;
    }
  };
  Object.defineProperty(wrapped, "length", { value: fn.length });
  return wrapped;
});

defineParameterType({
  name: "agent",
  regexp: /the agent|agent "([^"]*)"/,
  transformer: (name?: string) => name ?? DEFAULT_AGENT,
});

/** One of these words exactly: a typo in a feature file is an undefined step (a configuration error), never a broker's fault. */
const oneOf = (words: readonly string[]) => new RegExp([...words].sort((a, b) => b.length - a.length).join("|"));

defineParameterType({ name: "state", regexp: oneOf(OPERATION_STATES), transformer: (s: string) => operationStateSchema.parse(s) });

/** A quoted list of states, e.g. "awaiting_user, running". */
defineParameterType({
  name: "states",
  regexp: new RegExp(`"((?:${oneOf(OPERATION_STATES).source})(?:, (?:${oneOf(OPERATION_STATES).source}))*)"`),
  transformer: (list: string) => list.split(", ").map((s) => operationStateSchema.parse(s)),
});

defineParameterType({ name: "effect", regexp: oneOf(EFFECT_STATES), transformer: (s: string) => effectStateSchema.parse(s) });

const errorCode = z.enum(ERROR_CODES);

defineParameterType({ name: "code", regexp: oneOf(ERROR_CODES), transformer: (s: string) => errorCode.parse(s) });

/** A quoted list of error codes, e.g. "NOT_FOUND or RETRY_EPOCH_INVALID". */
defineParameterType({
  name: "codes",
  regexp: new RegExp(`"((?:${oneOf(ERROR_CODES).source})(?: or (?:${oneOf(ERROR_CODES).source}))*)"`),
  transformer: (list: string) => list.split(" or ").map((s) => errorCode.parse(s)),
});

defineParameterType({ name: "outcome", regexp: oneOf(CANCEL_OUTCOMES), transformer: (s: string) => s });

defineParameterType({ name: "tool", regexp: oneOf(CATALOGUE.map((c) => c.name)), transformer: (s: string) => s });

const RULES = loadRules().rules;
const KNOWN_RULES = new Set(RULES.map((r) => r.id));

/** How many times each scenario has started in this worker: cucumber retries (--retries) a failed one in the worker it failed in. */
const attempts = new Map<string, number>();

Before(async function (this: LomiWorld, { pickle }) {
  const cited = citedRules(
    pickle.tags.map((t) => t.name),
    KNOWN_RULES,
  );
  this.rules = RULES.filter((r) => cited.includes(r.id));
  const attempt = attempts.get(pickle.id) ?? 0;
  attempts.set(pickle.id, attempt + 1);
  const seed = attemptSeed(this.run, `${pickle.uri}:${pickle.name}`, attempt);
  this.attach(`seed ${seed} (run seed ${this.run.seed}${attempt > 0 ? `, retry ${attempt}` : ""})`, "text/plain");
  await this.setUp(seed, `${pickle.uri}: ${pickle.name}`);
});

for (const capability of CAPABILITIES) {
  Before({ tags: capabilityTag(capability) }, function (this: LomiWorld) {
    if (this.adapter.capabilities.has(capability)) return undefined;
    attachVerdict(this, { kind: "not-applicable", reason: `${this.adapter.description} ${WHY_NOT[capability]}` });
    return "skipped";
  });
}

/**
 * No fixed budget for the end of a scenario: the sweep reads everything the agents were told (4,096
 * receipts after a fill), and no rule bounds a broker's speed. Each read keeps --timeout-ms and the
 * first lost reply ends the sweep, so it always ends.
 */
const END_OF_SCENARIO_TIMEOUT_MS = -1;

/** One file a scenario, named after its feature and its name, so a failed one is easy to find and judge again. */
function writeHistory(dir: string, pickle: { uri: string; name: string }, repetition: number | undefined, records: Parameters<typeof formatHistory>[0]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, historyFileName(pickle, repetition)), formatHistory(records));
}

After({ timeout: END_OF_SCENARIO_TIMEOUT_MS }, async function (this: LomiWorld, { result, pickle }) {
  try {
    if (!this.driver) return; // the set-up failed: nothing ran
    const status = result?.status;
    const ran = status === Status.PASSED || status === Status.FAILED;
    // The last calls of the scenario itself, before the end-of-scenario reads add theirs.
    const exchanges = this.driver.lastExchanges(MAX_EXCHANGES);
    const verdicts = ran && this.run.oracles !== false ? await this.judgeHistory() : [];
    const { found, judged, unknown } = historyJudgement(verdicts, this.driver.records);
    // An oracle that failed judged nothing: the harness's fault, reported as such; the other verdicts stand.
    if (unknown.length > 0) this.attach(JSON.stringify(unknown), { mediaType: ORACLE_UNKNOWN_MEDIA_TYPE });
    // How many times each rule's situation arose in this history: every report says per rule how often it was judged.
    if (Object.keys(judged).length > 0) this.attach(JSON.stringify(judged), { mediaType: TRIGGERS_MEDIA_TYPE });
    // The evidence `lomi-conformance verify` judges again: every scenario that ran keeps its history.
    if (ran && this.run.historiesDir) writeHistory(this.run.historiesDir, pickle, this.run.repetition, await this.driver.finish());
    if (found.length > 0) this.attach(JSON.stringify(found), { mediaType: ORACLE_MEDIA_TYPE, fileName: ORACLE_FILE });
    if (status === Status.FAILED || found.length > 0) {
      // The request, the reply, and what Lomi really did: a failure that explains itself.
      const context = failureContextOf(exchanges, (await this.driver.control.ledger().catch(() => undefined)) ?? [], this.driver.adapter.diagnostics());
      this.attach(JSON.stringify(context, null, 2), { mediaType: "application/json", fileName: FAILURE_CONTEXT_FILE });
    }
    if (status === Status.PASSED) this.assertErrorsVerified();
    // Each finding blames the rules it breaks, not every rule its oracle lists.
    if (found.length > 0)
      throw violation(found.map((f) => `${f.title} (${f.violations[0]!.rules.join(", ")}): ${f.violations[0]!.message}`).join("\n"), [
        ...new Set(found.flatMap((f) => f.rules)),
      ]);
  } finally {
    await this.tearDown();
  }
});

AfterAll(async function () {
  forgetBrokerIdentity();
  await discardSpares(); // before the simulators: a spare broker talks to one
  await SimulatorFixture.closeShared();
});
