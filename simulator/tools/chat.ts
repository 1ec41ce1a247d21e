import type { z } from "zod";
import { chatDraftSave, chatSend } from "../../protocol/tools/chat.js";
import { recordEffect, type NativeContext, type NativeOperation, type NativeTool, type Settle } from "../native-tool.js";

/** The simulated provider answers this long after it received a message, on Lomi's clock. */
export const PROVIDER_REPLY_MS = 3000;

export const nativeChatDraftSave: NativeTool<typeof chatDraftSave.input> = {
  name: chatDraftSave.name,
  args: chatDraftSave.input,
  check(ctx, { ws, args }) {
    ctx.world.chats.requireDraftRevision(ctx.world.chats.conversation(ws.workspaceId, args.conversationId), args.expectedDraftRevision);
  },
  start(ctx, op, settle) {
    const draftRevision = ctx.world.chats.saveDraft(ctx.world.chats.conversation(op.ws.workspaceId, op.args.conversationId), op.args.text);
    recordEffect(ctx, op, { what: "chat.draft.saved", conversationId: op.args.conversationId, draftRevision });
    settle(op, { state: "succeeded", effectState: "complete", result: { conversationId: op.args.conversationId, draftRevision }, error: null });
  },
};

type SendOp = NativeOperation<z.infer<typeof chatSend.input>>;

/** A send the provider has received and not answered yet. */
interface AwaitedReply {
  sentAt: number;
  messageId: string;
}
const awaited = new WeakMap<NativeOperation, AwaitedReply>();

function sendResult(op: SendOp, reply: AwaitedReply, conversationRevision: string, replyMessageId: string | null) {
  return { conversationId: op.args.conversationId, messageId: reply.messageId, providerReceived: true, replyMessageId, conversationRevision };
}

export const nativeChatSend: NativeTool<typeof chatSend.input> = {
  name: chatSend.name,
  args: chatSend.input,
  check(ctx, { ws, args }) {
    ctx.world.chats.requireConversationRevision(ctx.world.chats.conversation(ws.workspaceId, args.conversationId), args.expectedConversationRevision);
  },
  start(ctx, op, settle) {
    const conversation = ctx.world.chats.conversation(op.ws.workspaceId, op.args.conversationId);
    const { messageId, conversationRevision } = ctx.world.chats.append(conversation, "user", op.args.text);
    recordEffect(ctx, op, { what: "provider.sent", conversationId: op.args.conversationId, messageId });
    const reply = { sentAt: ctx.clock.now(), messageId };
    if (op.cancelRequested) {
      // Cancelled while held: the provider has the message now all the same; Lomi stops waiting for its reply.
      settle(op, { state: "cancelled", effectState: "partial", result: sendResult(op, reply, conversationRevision, null), error: null });
      return;
    }
    awaited.set(op, reply);
    op.progress = { phase: "running", effectState: "partial" };
  },
  tick(ctx, op, settle) {
    const reply = awaited.get(op);
    if (!reply || ctx.clock.now() < reply.sentAt + PROVIDER_REPLY_MS) return;
    awaited.delete(op);
    const conversation = ctx.world.chats.conversation(op.ws.workspaceId, op.args.conversationId);
    const answer = ctx.world.chats.append(conversation, "assistant", `Noted: ${op.args.text}`);
    recordEffect(ctx, op, { what: "provider.replied", conversationId: op.args.conversationId, messageId: answer.messageId });
    settle(op, { state: "succeeded", effectState: "complete", result: sendResult(op, reply, answer.conversationRevision, answer.messageId), error: null });
  },
  cancel(ctx, op, settle) {
    const reply = awaited.get(op);
    if (!reply) return;
    awaited.delete(op);
    // The provider has the message: cancel stops the wait for its reply and cannot take the send back.
    const { conversationRevision } = ctx.world.chats.view(op.ws.workspaceId, op.args.conversationId);
    settle(op, { state: "cancelled", effectState: "partial", result: sendResult(op, reply, conversationRevision, null), error: null });
  },
};
