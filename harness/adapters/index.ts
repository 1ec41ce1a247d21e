import type { BrokerParts } from "../../reference-broker/broker.js";
import { configError } from "../harness-error.js";
import type { RunParameters } from "../run/run-parameters.js";
import type { BrokerAdapter } from "./broker-adapter.js";
import { ChildProcessAdapter } from "./child-process.js";
import { InProcessAdapter } from "./in-process.js";
import { UrlAdapter } from "./url.js";

/**
 * The parts of a mutant or a variant the run names in place of the reference broker; loaded only when
 * named. A name that is neither is a configuration error: a command checks it before any scenario runs.
 */
export async function inProcessParts(run: Extract<RunParameters, { adapter: "in-process" }>): Promise<BrokerParts | undefined> {
  if (run.mutant !== undefined) {
    const { ALL_MUTANTS, mutantNames } = await import("../../mutants/index.js");
    const mutant = ALL_MUTANTS.find((m) => m.name === run.mutant);
    if (!mutant) throw configError(`--mutant names one of: ${mutantNames()}`);
    return mutant.parts;
  }
  if (run.variant !== undefined) {
    const { ALL_VARIANTS } = await import("../../variants/index.js");
    const variant = ALL_VARIANTS.find((v) => v.name === run.variant);
    if (!variant) throw configError(`--variant names one of: ${ALL_VARIANTS.map((v) => v.name).join(", ")}`);
    return { policy: variant.policy };
  }
  return undefined;
}

/** The adapter for the broker a run names. testcontainers loads only when an image is asked for. */
export async function makeAdapter(run: RunParameters): Promise<BrokerAdapter> {
  switch (run.adapter) {
    case "in-process":
      return new InProcessAdapter(run.timeoutMs, await inProcessParts(run));
    case "command":
      return new ChildProcessAdapter({ line: run.brokerCommand, cwd: run.brokerCwd }, run.timeoutMs, run.brokerFaults, run.scenarios);
    case "url":
      return new UrlAdapter(new URL(run.brokerUrl), run.nativePort, run.timeoutMs);
    case "image": {
      const { ContainerAdapter } = await import("./container.js");
      return new ContainerAdapter(run.brokerImage, run.timeoutMs, run.brokerFaults);
    }
  }
}
