import { z } from "zod";
import { shellSyntaxIn } from "../text/command-line.js";
import { HEADERS_ENV, parseHeader, readHeaderFile } from "../connection/broker-request.js";
import type { RunParameters } from "../run/run-parameters.js";
import { flag, group, integer, read, text, texts, urlText, type ValuesOf } from "./declaration.js";
import { DEFAULT_NATIVE_PORT, UsageError } from "./options.js";

/** The broker a conformance run or an explore campaign judges: one of these names it. */
export const BROKER = group("Broker under test (one of)", {
  broker: read({
    value: "reference",
    schema: z
      .string()
      .refine((name) => name === "reference", { error: 'takes only "reference"; use --broker-cmd, --broker-url or --broker-image for another broker' }),
    help: "the reference broker in this process (the default)",
  }),
  mutant: text({ value: "NAME", help: "in this process, a deliberately broken broker of mutants/ (the suite must fail it)" }),
  variant: text({ value: "NAME", help: "in this process, a legal variant of variants/ (the suite must pass it)" }),
  "broker-cmd": read({
    value: '"CMD"',
    schema: z.string().superRefine((line, ctx) => {
      const problem = line.trim() === "" ? "needs a command" : shellSyntaxIn(line);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
    help:
      "a stdio MCP server the harness starts, kills (SIGKILL, its whole process group) and restarts; it gets LOMI_NATIVE_URL, LOMI_STORE_PATH and LOMI_SEED. " +
      `No shell reads it: for > | && ; $VAR or VAR=value, give "sh -c '…'"`,
  }),
  "broker-url": read({
    value: "URL",
    schema: urlText({ protocol: /^https?$/, what: "an http(s) URL", example: "http://127.0.0.1:3333/mcp" }),
    help:
      "a broker already running, over Streamable HTTP (e.g. http://127.0.0.1:3333/mcp). Start it with LOMI_NATIVE_URL=http://127.0.0.1:PORT: the harness serves the simulated Lomi there (--native-port). " +
      "Crash scenarios are not applicable.",
  }),
  "native-port": integer({
    value: "N",
    min: 1,
    max: 65535,
    what: "a port",
    help: `with --broker-url: where the simulated Lomi listens (default ${DEFAULT_NATIVE_PORT})`,
  }),
  "broker-token": text({ value: "TOKEN", help: "with --broker-url: the broker's bearer token (default: $LOMI_BROKER_TOKEN); no report shows it" }),
  header: texts({
    value: '"NAME: VALUE"',
    help: "with --broker-url: a header every request to the broker carries, for a gateway in front of it (again for another); no report shows its value",
  }),
  "header-file": text({
    value: "FILE",
    help: "with --broker-url: headers from FILE, a NAME: VALUE line each (# starts a comment); a --header of the same name wins",
  }),
  "broker-image": text({
    value: "IMAGE",
    help:
      "a broker image, run with testcontainers on the host network: it gets LOMI_NATIVE_URL, LOMI_STORE_PATH (under a mounted /lomi-store), LOMI_SEED and LOMI_MCP_PORT, and serves " +
      "http://127.0.0.1:$LOMI_MCP_PORT/mcp. A crash kills the container.",
  }),
  "broker-faults": flag({
    help:
      "the broker (--broker-cmd or --broker-image) honours LOMI_BROKER_FAULTS (fail-reserve, crash-after-reserve, crash-after-dispatch, crash-before-settle); " +
      "without it, scenarios that need fault hooks are not applicable",
  }),
});
export type BrokerValues = ValuesOf<typeof BROKER>;

/** What every broker's run parameters carry, whatever the adapter. */
type Common = Pick<RunParameters, "seed" | "timeoutMs" | "oracles" | "historiesDir" | "replaySeed">;

/** The broker the options name, as run parameters and a name for the reports. */
export function brokerOf(values: BrokerValues, common: Common): { parameters: RunParameters; name: string } {
  const chosen = (["broker", "broker-cmd", "broker-url", "broker-image", "mutant", "variant"] as const).filter((k) => values[k] !== undefined);
  if (chosen.length > 1) throw new UsageError(`name one broker, not ${chosen.map((k) => `--${k}`).join(" and ")}`);
  const url = values["broker-url"];
  if (values["native-port"] !== undefined && url === undefined) throw new UsageError("--native-port goes with --broker-url");
  if (values["broker-token"] !== undefined && url === undefined) throw new UsageError("--broker-token goes with --broker-url");
  // Through the environment, so worker processes get it and no report records it.
  if (values["broker-token"] !== undefined) process.env.LOMI_BROKER_TOKEN = values["broker-token"];
  const headers = gatewayHeaders(values);
  if (headers.length > 0 && url === undefined)
    throw new UsageError("--header and --header-file go with --broker-url: the headers a gateway in front of the broker wants");
  if (headers.some(([n]) => n.toLowerCase() === "authorization") && process.env.LOMI_BROKER_TOKEN)
    throw new UsageError("a bearer token (--broker-token or LOMI_BROKER_TOKEN) and an Authorization header: give one");
  if (headers.length > 0) process.env[HEADERS_ENV] = JSON.stringify(Object.fromEntries(headers));
  const brokerFaults = values["broker-faults"];
  if (brokerFaults && values["broker-cmd"] === undefined && values["broker-image"] === undefined) {
    throw new UsageError(
      "--broker-faults goes with --broker-cmd or --broker-image: the reference broker in-process has its hooks, a broker at a URL cannot be armed",
    );
  }
  if (values["broker-cmd"] !== undefined) {
    return {
      parameters: { adapter: "command", brokerCommand: values["broker-cmd"], brokerCwd: process.cwd(), brokerFaults, ...common },
      name: `command: ${values["broker-cmd"]}`,
    };
  }
  if (url !== undefined) {
    const nativePort = values["native-port"] ?? DEFAULT_NATIVE_PORT;
    return { parameters: { adapter: "url", brokerUrl: url.href, nativePort, ...common }, name: `url: ${url.href} (simulated Lomi on 127.0.0.1:${nativePort})` };
  }
  if (values["broker-image"] !== undefined) {
    return { parameters: { adapter: "image", brokerImage: values["broker-image"], brokerFaults, ...common }, name: `image: ${values["broker-image"]}` };
  }
  if (values.mutant !== undefined)
    return { parameters: { adapter: "in-process", mutant: values.mutant, ...common }, name: `mutant ${values.mutant} (in-process)` };
  if (values.variant !== undefined)
    return { parameters: { adapter: "in-process", variant: values.variant, ...common }, name: `variant ${values.variant} (in-process)` };
  return { parameters: { adapter: "in-process", ...common }, name: "reference broker (in-process)" };
}

/** --header-file's headers, then each --header (a later one of the same name wins). */
function gatewayHeaders(values: BrokerValues): Array<[string, string]> {
  const fromFile = values["header-file"] === undefined ? [] : readHeaderFile(values["header-file"]);
  return [...fromFile, ...values.header.map((h, i) => parseHeader(h, `--header #${i + 1}`))];
}

/** The broker options a run's reports record (never its token or headers): for a rerun, and for a replay line. */
export const RECORDED_BROKER_OPTIONS = ["broker", "broker-cmd", "broker-url", "native-port", "broker-image", "broker-faults", "mutant", "variant"] as const;

/** Those options as the command line gave them. */
export function brokerArgs(values: BrokerValues): string[] {
  return RECORDED_BROKER_OPTIONS.flatMap((k) => {
    const value = values[k];
    if (value === undefined || value === false) return [];
    return value === true ? [`--${k}`] : [`--${k}`, value instanceof URL ? value.href : String(value)];
  });
}
