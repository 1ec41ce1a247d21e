import { buildToolResult, ok, type Envelope, type EnvelopeToolResult } from "../protocol/envelope.js";
import type { BrokerCore, BrokerParts } from "../reference-broker/broker.js";
import { BrokerSession } from "../reference-broker/session.js";

export type Args = Record<string, unknown>;

/** What a call wrapper gets: the real call, and the broker's parts for a mutant that reads them. */
export interface CallContext {
  call: (name: string, args: Args) => Promise<EnvelopeToolResult>;
  core: BrokerCore;
  session: BrokerSession;
  /** The MCP client's name: the pairing this session acts for. */
  clientName: () => string;
}

/**
 * A session whose every call goes through `wrap`: the mutant's defect lives at the MCP boundary,
 * rewriting the arguments on the way in or the reply on the way out.
 */
export function sessionWrappedBy(wrap: (ctx: CallContext, name: string, args: Args) => Promise<EnvelopeToolResult>): NonNullable<BrokerParts["session"]> {
  return (core, clientName) =>
    new (class extends BrokerSession {
      override call(name: string, raw: unknown): Promise<EnvelopeToolResult> {
        return wrap({ call: (n, a) => super.call(n, a), core, session: this, clientName }, name, (raw ?? {}) as Args);
      }
    })(core, clientName);
}

/** A session that lets every call through and rewrites its reply: the commonest kind of defect. */
export const sessionRewritingReplies = (rewrite: (reply: EnvelopeToolResult, name: string, args: Args, ctx: CallContext) => EnvelopeToolResult | Promise<EnvelopeToolResult>) =>
  sessionWrappedBy(async (ctx, name, args) => rewrite(await ctx.call(name, args), name, args, ctx));

/** The envelope of a reply, for a mutant that inspects it. */
export const envelopeOf = (result: EnvelopeToolResult): Envelope => result.structuredContent;

export const errorCodeOf = (result: EnvelopeToolResult): string | undefined => {
  const e = envelopeOf(result);
  return e.status === "error" ? e.code : undefined;
};

export function okDataOf(result: EnvelopeToolResult): Record<string, any> | undefined {
  const e = envelopeOf(result);
  return e.status === "ok" ? (e.data as Record<string, any>) : undefined;
}

/** A well-formed ok reply with other data: the mutant's lie passes the envelope checks. */
export const okReply = (data: unknown): EnvelopeToolResult => buildToolResult(ok(data));
