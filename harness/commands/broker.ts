import path from "node:path";
import { shellSyntaxIn } from "../text/command-line.js";
import { HEADERS_ENV, parseHeader, readHeaderFile } from "../connection/broker-request.js";
import type { RunParameters } from "../run/run-parameters.js";
import { DEFAULT_NATIVE_PORT, integer, UsageError, type OptionValues } from "./options.js";

/** The broker the options name, as run parameters and a name for the reports. */
export function brokerOf(values: OptionValues, seed: number, timeoutMs: number): { parameters: RunParameters; name: string } {
  const chosen = (["broker", "broker-cmd", "broker-url", "broker-image", "mutant", "variant"] as const).filter((k) => values[k] !== undefined);
  if (values.oracles !== "on" && values.oracles !== "off") throw new UsageError(`--oracles must be on or off, not ${values.oracles}`);
  const historiesDir = values.histories === undefined ? undefined : path.resolve(values.histories);
  // What every broker's run parameters carry, whatever the adapter.
  const replaySeed = values["scenario-seed"] === undefined ? undefined : integer("--scenario-seed", values["scenario-seed"], 0, 2 ** 32 - 1);
  const common = { seed, timeoutMs, oracles: values.oracles === "on", ...(historiesDir ? { historiesDir } : {}), ...(replaySeed !== undefined ? { replaySeed } : {}) };
  if (chosen.length > 1) throw new UsageError(`name one broker, not ${chosen.map((k) => `--${k}`).join(" and ")}`);
  if (values.broker !== undefined && values.broker !== "reference") throw new UsageError(`--broker takes only "reference"; use --broker-cmd, --broker-url or --broker-image for another broker`);
  if (values["native-port"] !== undefined && values["broker-url"] === undefined) throw new UsageError("--native-port goes with --broker-url");
  if (values["broker-token"] !== undefined && values["broker-url"] === undefined) throw new UsageError("--broker-token goes with --broker-url");
  // Through the environment, so worker processes get it and no report records it.
  if (values["broker-token"] !== undefined) process.env.LOMI_BROKER_TOKEN = values["broker-token"];
  const headers = gatewayHeaders(values);
  if (headers.length > 0 && values["broker-url"] === undefined) throw new UsageError("--header and --header-file go with --broker-url: the headers a gateway in front of the broker wants");
  if (headers.some(([n]) => n.toLowerCase() === "authorization") && process.env.LOMI_BROKER_TOKEN) throw new UsageError("a bearer token (--broker-token or LOMI_BROKER_TOKEN) and an Authorization header: give one");
  if (headers.length > 0) process.env[HEADERS_ENV] = JSON.stringify(Object.fromEntries(headers));
  const brokerFaults = values["broker-faults"];
  if (brokerFaults && values["broker-cmd"] === undefined && values["broker-image"] === undefined) {
    throw new UsageError("--broker-faults goes with --broker-cmd or --broker-image: the reference broker in-process has its hooks, a broker at a URL cannot be armed");
  }
  if (values["broker-cmd"] !== undefined) {
    if (values["broker-cmd"].trim() === "") throw new UsageError("--broker-cmd needs a command");
    const shell = shellSyntaxIn(values["broker-cmd"]);
    if (shell) throw new UsageError(shell);
    return { parameters: { adapter: "command", brokerCommand: values["broker-cmd"], brokerCwd: process.cwd(), brokerFaults, ...common }, name: `command: ${values["broker-cmd"]}` };
  }
  if (values["broker-url"] !== undefined) {
    let url: URL;
    try {
      url = new URL(values["broker-url"]);
    } catch {
      throw new UsageError(`--broker-url must be a URL such as http://127.0.0.1:3333/mcp, not ${values["broker-url"]}`);
    }
    if (!["http:", "https:"].includes(url.protocol)) throw new UsageError(`--broker-url must be http(s), not ${url.protocol}`);
    const nativePort = integer("--native-port", values["native-port"] ?? String(DEFAULT_NATIVE_PORT), 1, 65535);
    return { parameters: { adapter: "url", brokerUrl: url.href, nativePort, ...common }, name: `url: ${url.href} (simulated Lomi on 127.0.0.1:${nativePort})` };
  }
  if (values["broker-image"] !== undefined) {
    return { parameters: { adapter: "image", brokerImage: values["broker-image"], brokerFaults, ...common }, name: `image: ${values["broker-image"]}` };
  }
  if (values.mutant !== undefined) return { parameters: { adapter: "in-process", mutant: values.mutant, ...common }, name: `mutant ${values.mutant} (in-process)` };
  if (values.variant !== undefined) return { parameters: { adapter: "in-process", variant: values.variant, ...common }, name: `variant ${values.variant} (in-process)` };
  return { parameters: { adapter: "in-process", ...common }, name: "reference broker (in-process)" };
}

/** --header-file's headers, then each --header (a later one of the same name wins). */
function gatewayHeaders(values: OptionValues): Array<[string, string]> {
  const fromFile = values["header-file"] === undefined ? [] : readHeaderFile(values["header-file"]);
  return [...fromFile, ...(values.header ?? []).map((h, i) => parseHeader(h, `--header #${i + 1}`))];
}

/** The options that name the broker, as the command line gave them: recorded for a rerun, printed in a replay line. */
export const BROKER_OPTIONS = ["broker", "broker-cmd", "broker-url", "native-port", "broker-image", "broker-faults", "mutant", "variant"] as const;
export function brokerArgs(values: OptionValues): string[] {
  return BROKER_OPTIONS.flatMap((k) => {
    const value = values[k];
    return value === undefined || value === false ? [] : value === true ? [`--${k}`] : [`--${k}`, value];
  });
}
