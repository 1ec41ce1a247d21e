import type { RunParameters } from "../run-parameters.js";
import type { BrokerAdapter } from "./broker-adapter.js";
import { ChildProcessAdapter } from "./child-process.js";
import { InProcessAdapter } from "./in-process.js";
import { UrlAdapter } from "./url.js";

/** The adapter for the broker a run names. testcontainers loads only when an image is asked for. */
export async function makeAdapter(run: RunParameters): Promise<BrokerAdapter> {
  switch (run.adapter) {
    case "in-process":
      return new InProcessAdapter(run.timeoutMs);
    case "command":
      return new ChildProcessAdapter({ line: run.brokerCommand, cwd: run.brokerCwd }, run.timeoutMs, run.brokerFaults);
    case "url":
      return new UrlAdapter(new URL(run.brokerUrl), run.nativePort, run.timeoutMs);
    case "image": {
      const { ContainerAdapter } = await import("./container.js");
      return new ContainerAdapter(run.brokerImage, run.timeoutMs, run.brokerFaults);
    }
  }
}
