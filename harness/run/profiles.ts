import type { Capability } from "./capabilities.js";
import type { RunParameters } from "./run-parameters.js";

/**
 * A named profile: the adapter a run used, what it cannot judge, and where those rules can be
 * judged. A run is "conformant over PROFILE" when every rule it judged passed; the rules it could
 * not judge are named, never counted as passed (`--require-all` makes them fail the run).
 */
export interface Profile {
  name: string;
  /** The harness capabilities the adapter lacks: the scenarios that need them are not judged. */
  lacks: Capability[];
  /** Where the rules not judged here can be judged. */
  elsewhere: string;
}

export function profileOf(parameters: RunParameters): Profile {
  switch (parameters.adapter) {
    case "in-process":
      return { name: "in-process", lacks: ["kill-at-start"], elsewhere: "run a broker command (--broker-cmd) to judge it" };
    case "command":
      return parameters.brokerFaults
        ? {
            name: "stdio",
            lacks: ["multi-connection"],
            elsewhere: "these need two connections to one running broker at once: run over HTTP (--broker-url) or an image (--broker-image) to judge them",
          }
        : {
            name: "stdio without fault hooks",
            lacks: ["multi-connection", "faults"],
            elsewhere: "add --broker-faults if the broker honours LOMI_BROKER_FAULTS, and run over HTTP or an image for two connections at once",
          };
    case "url":
      return {
        name: "HTTP at a URL",
        lacks: ["crash", "faults", "own-store", "kill-at-start"],
        elsewhere: "run it as --broker-cmd (with --broker-faults) or --broker-image to judge them",
      };
    case "image":
      return parameters.brokerFaults
        ? { name: "image", lacks: ["kill-at-start"], elsewhere: "run the broker as a command (--broker-cmd) to judge it" }
        : { name: "image without fault hooks", lacks: ["faults", "kill-at-start"], elsewhere: "add --broker-faults if the image honours LOMI_BROKER_FAULTS" };
  }
}
