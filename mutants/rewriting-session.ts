import { buildToolResult, ok, type Envelope, type EnvelopeToolResult } from "../protocol/envelope.js";
import type { BrokerCore, BrokerParts } from "../reference-broker/broker.js";
import { BrokerSession } from "../reference-broker/session.js";
import { picking, type Picks, type SeenCall } from "./picks.js";

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

type Rewrite = (reply: EnvelopeToolResult, name: string, args: Args, ctx: CallContext) => EnvelopeToolResult | Promise<EnvelopeToolResult>;

/** A session that lets every call through and rewrites its reply: the commonest kind of defect. */
export const sessionRewritingReplies = (rewrite: Rewrite) => sessionWrappedBy(async (ctx, name, args) => rewrite(await ctx.call(name, args), name, args, ctx));

/** A session that acts only on the calls `picks` chooses and makes every other one as the reference broker does. */
export type PickingSession = NonNullable<BrokerParts["session"]> & { picks: Picks };

/**
 * A session that rewrites only the replies `picks` chooses, seen as the reference broker gave them,
 * and passes every other reply on untouched (its rewrite is not even called). A run in which it picks
 * no reply is the reference broker's own, so `lomi-conformance teeth` (and npm test's precision test)
 * judge a mutant made of it alone only on the scenarios whose reference history holds a reply it
 * picks. A call whose reply was lost may have been picked: those scenarios are judged too.
 */
export function sessionRewritingPicked(picks: (call: SeenCall & { reply: NonNullable<SeenCall["reply"]> }) => boolean, rewrite: Rewrite): PickingSession {
  const session = sessionWrappedBy(async (ctx, name, args) => {
    const reply = await ctx.call(name, args);
    return picks({ tool: name, args, reply }) ? rewrite(reply, name, args, ctx) : reply;
  });
  return picking(session, (call) => call.reply === undefined || picks({ ...call, reply: call.reply }));
}

/**
 * A session that wraps only the calls `picks` chooses by what they send, and makes every other call
 * as sent: as sessionRewritingPicked, teeth judges a mutant made of it alone only on the scenarios
 * whose reference history holds a call it picks.
 */
export function sessionWrappingPicked(
  picks: (call: Pick<SeenCall, "tool" | "args">) => boolean,
  wrap: (ctx: CallContext, name: string, args: Args) => Promise<EnvelopeToolResult>,
): PickingSession {
  const session = sessionWrappedBy((ctx, name, args) => (picks({ tool: name, args }) ? wrap(ctx, name, args) : ctx.call(name, args)));
  return picking(session, (call) => picks(call));
}

/** A reply as a mutant reads it: as the session answers it, or as a history recorded it. */
type Replied = Pick<EnvelopeToolResult, "structuredContent">;

/** The envelope of a reply, for a mutant that inspects it. */
export const envelopeOf = (result: Replied): Envelope => result.structuredContent;

export const errorCodeOf = (result: Replied): string | undefined => {
  const e = envelopeOf(result);
  return e.status === "error" ? e.code : undefined;
};

export function okDataOf(result: Replied): Record<string, any> | undefined {
  const e = envelopeOf(result);
  return e.status === "ok" ? (e.data as Record<string, any>) : undefined;
}

/** A well-formed ok reply with other data: the mutant's lie passes the envelope checks. */
export const okReply = (data: unknown): EnvelopeToolResult => buildToolResult(ok(data));
