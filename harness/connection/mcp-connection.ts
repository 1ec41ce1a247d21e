import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { sharedSchemaValidator } from "../../protocol/schema-validator.js";
import { ErrorCode, ListToolsResultSchema, McpError, type JSONRPCMessage, type MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { ZodError } from "zod";
import { boundedJson, oneLine } from "../text/bounded-json.js";
import type { Envelope } from "../../protocol/envelope.js";
import { noAnswer, violation } from "../harness-error.js";
import { checkEnvelope, type RawToolResult } from "../contract-checks/reply-checks.js";
import { systemCodeOf } from "../../protocol/errors.js";

export interface Reply {
  tool: string;
  args: Record<string, unknown>;
  raw: RawToolResult;
  envelope: Envelope;
}

export interface PublishedTools {
  tools: Array<{ name: string; inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown> }>;
}

/** One request the suite sent and what came back (a reply, or why none did): the stuff of failure reports. */
export interface Exchange {
  agent: string;
  tool: string;
  args: Record<string, unknown>;
  reply: RawToolResult | undefined;
  error: string | undefined;
}

/** Says why a transport ended (a process that exited, garbage on stdout), when the adapter knows. */
export type Explain = () => string | undefined;

/** One MCP client connection to the broker under test, as one named agent. */
export class McpConnection {
  /** Called with every exchange, answered or not. */
  onExchange: ((exchange: Exchange) => void) | undefined;

  private constructor(
    private readonly client: Client,
    readonly clientName: string,
    private readonly timeoutMs: number,
    private readonly explain: Explain,
  ) {}

  static async open(transport: Transport, clientName: string, timeoutMs: number, adapterExplain: Explain = () => undefined): Promise<McpConnection> {
    const unreadable = guardMessages(transport);
    const explain: Explain = () => [unreadable(), adapterExplain()].filter((x) => x !== undefined).join("; ") || undefined;
    const client = new Client({ name: clientName, version: "1.0.0" }, { jsonSchemaValidator: sharedSchemaValidator() });
    try {
      await client.connect(transport, { timeout: timeoutMs });
    } catch (error) {
      const reason = because(explain); // before close: closing kills a broker process, and that is not why
      await client.close().catch(() => undefined);
      const message = `the broker did not complete MCP initialize (timeout ${timeoutMs} ms): ${causeOf(error)}${reason}`;
      // No answer in time judges no rule (a busy machine, a slow start); an answer that was wrong, or a broker that died, does.
      throw timedOut(error) ? noAnswer(message) : violation(message);
    }
    return new McpConnection(client, clientName, timeoutMs, explain);
  }

  /** The name and version the broker gave in its initialize answer. */
  serverInfo(): { name: string; version: string } | undefined {
    const info = this.client.getServerVersion();
    return info && { name: info.name, version: info.version };
  }

  async listTools(): Promise<PublishedTools> {
    try {
      // A plain request, not Client.listTools: that compiles every output schema with AJV (about 2 s
      // for the catalogue) and then makes callTool judge replies by them, so a call's checks would
      // change with whether the scenario listed the tools. The suite's own checks judge every reply.
      return await this.client.request({ method: "tools/list" }, ListToolsResultSchema, { timeout: this.timeoutMs });
    } catch (error) {
      const message = `tools/list did not answer (timeout ${this.timeoutMs} ms): ${causeOf(error)}${because(this.explain)}`;
      throw timedOut(error) ? noAnswer(message) : violation(message);
    }
  }

  /** Calls a tool and checks the reply's envelope (the ENV rules) before anyone reads it. */
  async call(tool: string, args: Record<string, unknown>): Promise<Reply> {
    return checkedReply(tool, args, await this.callUnchecked(tool, args));
  }

  /** Calls a tool and answers the raw result, or why none came: for a recorder that judges replies later. */
  async callUnchecked(tool: string, args: Record<string, unknown>): Promise<CallAnswer> {
    let raw: RawToolResult;
    try {
      raw = await this.client.callTool({ name: tool, arguments: args }, undefined, { timeout: this.timeoutMs });
    } catch (error) {
      const message = `${tool} did not answer with a tool result: ${whyNoResult(error, this.timeoutMs)}${because(this.explain)}`;
      this.onExchange?.({ agent: this.clientName, tool, args, reply: undefined, error: message });
      // A JSON-RPC error is an answer (the connection stands): a step where MCP allows one may accept it.
      const rpc =
        error instanceof McpError && error.code !== ErrorCode.RequestTimeout && error.code !== ErrorCode.ConnectionClosed
          ? { rpcError: { code: error.code, message: error.message } }
          : {};
      const late = timedOut(error) ? { timedOut: true as const } : {};
      // Neither a result nor a JSON-RPC error: the connection ended (the broker died, the transport broke) with the call unanswered.
      const lost = !("rpcError" in rpc) && !timedOut(error) && !(error instanceof ZodError) ? { lost: true as const } : {};
      return { error: message, ...rpc, ...late, ...lost };
    }
    this.onExchange?.({ agent: this.clientName, tool, args, reply: raw, error: undefined });
    return { reply: raw };
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}

/** The SDK's own timeout: the request went out and no answer came within --timeout-ms. */
const timedOut = (error: unknown) => error instanceof McpError && error.code === ErrorCode.RequestTimeout;

/** A tool result, or why none came (with the JSON-RPC error when the broker answered one). */
export type CallAnswer = { reply: RawToolResult } | { error: string; rpcError?: { code: number; message: string }; timedOut?: true; lost?: true };

/**
 * A call's answer with its envelope checked (the ENV rules) before anyone reads it. No reply fails the
 * step and judges no rule (none in time, or the connection ended with it unanswered); a JSON-RPC error,
 * or something that is not a tool result, in place of the envelope breaks ENV-01.
 */
export function checkedReply(tool: string, args: Record<string, unknown>, answer: CallAnswer): Reply {
  if ("error" in answer) throw answer.timedOut || answer.lost ? noAnswer(answer.error) : violation(answer.error, ["ENV-01"]);
  return { tool, args, raw: answer.reply, envelope: checkEnvelope(tool, answer.reply) };
}

/**
 * The SDK's client handles each message the broker sends inside the transport's delivery: a
 * message it cannot handle (a reply for an unknown id, nested past the stack's depth, which it
 * quotes with JSON.stringify) throws there, and on a process transport that would end the
 * harness's process. The connection ends instead, the calls in flight get no reply, and the
 * reason is kept for the failure report. Answers that reason, once there is one.
 */
function guardMessages(transport: Transport): () => string | undefined {
  let handler: Transport["onmessage"];
  let reason: string | undefined;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => {
      const handle = handler;
      return (
        handle &&
        ((message: JSONRPCMessage, extra?: MessageExtraInfo) => {
          try {
            handle(message, extra);
          } catch (error) {
            reason ??= `the broker sent a message the MCP client could not take (${error instanceof Error ? `${error.name}: ${error.message.slice(0, 200)}` : String(error)}): ${boundedJson(message, 300)}`;
            void transport.close();
          }
        })
      );
    },
    set: (fn: Transport["onmessage"]) => {
      handler = fn;
    },
  });
  return () => reason;
}

/** Why a call got no tool result, in the words a broker's author needs: no reply in time, a JSON-RPC error, or a result of another shape. */
function whyNoResult(error: unknown, timeoutMs: number): string {
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return `no reply within ${timeoutMs} ms (--timeout-ms)`;
  if (error instanceof ZodError) {
    const issues = error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    return `the result is not an MCP tool result (${issues.join("; ")}${error.issues.length > 3 ? "; …" : ""})`;
  }
  if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed)
    return `a JSON-RPC error came instead of a result (${oneLine(error.message, 500)})`;
  return causeOf(error);
}

/** A transport error with what lies under it: "fetch failed" alone does not say a socket was reset or refused. */
function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  if (!cause) return error.message;
  const code = systemCodeOf(cause);
  return `${error.message} (${code !== undefined ? `${code}: ` : ""}${cause.message})`;
}

function because(explain: Explain): string {
  const reason = explain();
  return reason ? `; ${reason}` : "";
}
