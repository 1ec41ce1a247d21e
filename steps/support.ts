import { After, AfterAll, Before, defineParameterType, setDefaultTimeout, setDefinitionFunctionWrapper, setWorldConstructor, Status } from "@cucumber/cucumber";
import { CAPABILITIES, capabilityTag, WHY_NOT } from "../harness/adapters/broker-adapter.js";
import { HarnessError } from "../harness/harness-error.js";
import { FAILURE_CONTEXT_FILE, type FailureContext } from "../harness/report/failure-context.js";
import { HARNESS_FAULT } from "../harness/report/scenario-results.js";
import { SimulatorFixture } from "../harness/simulator-fixture.js";
import { runParametersSchema, scenarioSeed } from "../harness/run-parameters.js";
import { citedRules, loadRules } from "../harness/rules.js";
import { DEFAULT_AGENT, LomiWorld } from "./world.js";

setWorldConstructor(LomiWorld);

// Steps run one broker call or a few; a hung broker fails the step rather than the whole run.
const timeoutMs = Number(process.env.LOMI_STEP_TIMEOUT_MS ?? runParametersSchema.parse({}).timeoutMs);
setDefaultTimeout(timeoutMs + 5_000);

/** A step or hook that meets a broker it cannot judge reports "not applicable" with the reason. */
setDefinitionFunctionWrapper((fn: (...args: unknown[]) => unknown) => {
  const wrapped = async function (this: LomiWorld, ...args: unknown[]) {
    try {
      return await fn.apply(this, args);
    } catch (error) {
      if (error instanceof HarnessError && error.kind === "not-applicable") {
        this.attach(`not-applicable: ${error.message}`, "text/plain");
        return "skipped";
      }
      if (error instanceof HarnessError && error.kind === "harness") this.attach(`${HARNESS_FAULT}${error.message}`, "text/plain");
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

defineParameterType({
  name: "state",
  regexp: /queued|awaiting_user|running|cancelling|succeeded|failed|cancelled|outcome_unknown/,
  transformer: (s: string) => s,
});

defineParameterType({
  name: "effect",
  regexp: /none|partial|complete|unknown/,
  transformer: (s: string) => s,
});

defineParameterType({
  name: "code",
  regexp: /[A-Z][A-Z_]+/,
  transformer: (s: string) => s,
});

const KNOWN_RULES = new Set(loadRules().rules.map((r) => r.id));

Before(async function (this: LomiWorld, { pickle }) {
  citedRules(pickle.tags.map((t) => t.name), KNOWN_RULES);
  const seed = scenarioSeed(this.run.seed, `${pickle.uri}:${pickle.name}`);
  this.attach(`seed ${seed} (run seed ${this.run.seed})`, "text/plain");
  await this.setUp(seed);
});

for (const capability of CAPABILITIES) {
  Before({ tags: capabilityTag(capability) }, function (this: LomiWorld) {
    if (this.adapter.capabilities.has(capability)) return undefined;
    this.attach(`not-applicable: ${this.adapter.description} ${WHY_NOT[capability]}`, "text/plain");
    return "skipped";
  });
}

After(async function (this: LomiWorld, { result }) {
  try {
    if (result?.status === Status.PASSED) this.assertErrorsVerified();
    if (result?.status === Status.FAILED) {
      // The request, the reply, and what Lomi really did: a failure that explains itself.
      const context: FailureContext = {
        exchanges: this.exchanges,
        ledger: (await this.control?.ledger().catch(() => undefined)) ?? [],
        brokerLog: this.adapter?.diagnostics().slice(-4000) ?? "",
      };
      this.attach(JSON.stringify(context, null, 2), { mediaType: "application/json", fileName: FAILURE_CONTEXT_FILE });
    }
  } finally {
    await this.tearDown();
  }
});

AfterAll(async function () {
  await SimulatorFixture.closeShared();
});
