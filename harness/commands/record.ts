import { command, flag, integer, read, text, urlText } from "./declaration.js";

/** `lomi-conformance record`: the traffic between a real MCP client and a broker, recorded for check. */
export const RECORD = command({
  name: "record",
  summary: "records a real MCP client's traffic with a broker, for check",
  operands: { count: "any" },
  passThrough: true,
  description: 'The history is a lomi-history/1 file, for lomi-conformance check (docs/implementers.md, "Judging your real traffic").',
  forms: [
    {
      usage: "lomi-conformance record --history FILE [--live] [--faults SPEC [--seed N] [--lomi-control URL]] -- CMD [ARGS…]",
      says:
        "a stdio MCP server standing in for the broker command CMD: name this command in your MCP client's configuration where the broker's was. " +
        "CMD runs as its child; every message passes both ways unchanged, byte for byte, its stderr included.",
    },
    {
      usage: 'lomi-conformance record --history FILE [--live] […] --broker-cmd "CMD [ARGS…]"',
      says: "the same, the broker's command given as one word, for a client that takes -- as its own (the MCP Inspector's CLI).",
    },
    {
      usage: "lomi-conformance record --history FILE [--live] --listen PORT --to URL",
      says:
        "a reverse proxy on http://127.0.0.1:PORT/mcp in front of the broker's Streamable HTTP endpoint URL: point your client at it instead. " +
        "One history for all sessions, each its own connection. Host and Origin are checked as the reference broker checks them; " +
        "the bearer token goes to the broker as the client sent it, and never into the history. Stop it with Ctrl+C (or SIGTERM).",
    },
  ],
  options: {
    history: text({
      value: "FILE",
      help: "the history to append to (made if missing; each finished call is written at once, so a killed recorder loses at most the calls in flight)",
    }),
    "broker-cmd": text({
      value: '"CMD [ARGS…]"',
      help: 'the broker\'s command in place of -- CMD [ARGS…], split on spaces, "quoted words" kept whole, run without a shell',
    }),
    live: flag({
      help: "on stderr, each oracle violation as soon as the history shows it (rules, records, one line); first, one line of the rules recorded traffic cannot judge (it has no Lomi effect ledger), each once. Messages are never held back for it.",
    }),
    listen: integer({ value: "PORT", max: 65535, what: "a port", help: "with --to: the port on 127.0.0.1 (0 picks a free one; the address is printed)" }),
    to: read({
      value: "URL",
      schema: urlText({ protocol: /^https?$/, what: "the broker's http(s) URL", example: "http://127.0.0.1:3333/mcp" }),
      help: "with --listen: the broker's endpoint, e.g. http://127.0.0.1:3333/mcp",
    }),
    faults: text({
      value: "SPEC",
      help:
        'between the client and CMD, lose a reply, restart the broker or hold an operation, so the agent\'s recovery is exercised and judged (docs/agents.md, "Faults"): ' +
        "SPEC is ITEM[,ITEM…], ITEM is KIND:SUBJECT[#N|@P%], KIND lose-reply, restart or hold, SUBJECT a tool name or op (any operation tool); " +
        "#N the N-th call of it (default the first), @P% each call with probability P. Each fault is written to the history as it is injected. The stdio form only.",
    }),
    seed: integer({ value: "N", help: "with --faults: what the @P% draws are seeded from (default 1, as a conformance run's)" }),
    "lomi-control": read({
      value: "URL",
      schema: urlText({ what: "the simulated Lomi's URL", example: "http://127.0.0.1:4545" }),
      help: "with --faults: the simulated Lomi's control API (lomi-sim serve, or lomi-broker --simulate --control-port): hold arms and releases a held dispatch there",
    }),
  },
  examples: [
    {
      line: "lomi-conformance record --history traffic.jsonl -- your-broker --stdio",
      says: "in your MCP client's configuration, in place of your broker's command",
    },
    {
      line: 'lomi-conformance record --history a.jsonl --faults "lose-reply:op@10%,restart:op#3" -- your-broker',
      says: "lose replies and restart the broker: judge your agent's recovery",
    },
    {
      line: "lomi-conformance record --history traffic.jsonl --live --listen 4000 --to http://127.0.0.1:3333/mcp",
      says: "in front of a broker over HTTP, each violation on stderr as it happens",
    },
  ],
  notes:
    "The history records each tools/call with the client's name and version (initialize's clientInfo) as its\n" +
    "agent, overlapping calls with a shared concurrent mark, and a broker-crash fault when CMD exits while\n" +
    "its client is still connected. Judge it with lomi-conformance check FILE.\n" +
    "Exit codes: the stdio form exits as CMD does; 2 a configuration error.",
  async run(parsed) {
    const { recordCommand, recordRequest } = await import("../record/command.js");
    return recordCommand(recordRequest(parsed));
  },
});
