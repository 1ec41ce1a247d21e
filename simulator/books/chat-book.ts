import type { z } from "zod";
import { LomiError } from "../../protocol/errors.js";
import type { Random } from "../../protocol/ports.js";
import { CHAT_MESSAGES_MAX, type conversationSeed } from "../../protocol/tools/chat.js";

interface Conversation {
  conversationId: string;
  workspaceId: string;
  title: string;
  revision: bigint;
  messages: Array<{ messageId: string; role: "user" | "assistant"; text: string }>;
  draft: { text: string; revision: bigint };
}

function requireRevision(field: string, expected: string, current: bigint, what: string): void {
  if (BigInt(expected) !== current) {
    throw new LomiError("REVISION_CONFLICT", `${field} ${expected} is stale; the ${what} is at revision ${current}. Read the conversation again.`, {
      field,
      currentRevision: current.toString(),
    });
  }
}

/** Chat conversations: messages under a conversationRevision, and a saved draft under its own draftRevision. */
export class ChatBook {
  private readonly conversations = new Map<string, Conversation>();

  constructor(
    seeds: ReadonlyArray<z.infer<typeof conversationSeed>>,
    private readonly random: Random,
  ) {
    for (const s of seeds) this.conversations.set(s.conversationId, { ...s, revision: 1n, messages: [], draft: { text: "", revision: 1n } });
  }

  /** The conversation with this ID in this workspace; a title is not an ID and finds nothing. */
  conversation(workspaceId: string, conversationId: string): Conversation {
    const c = this.conversations.get(conversationId);
    if (!c || c.workspaceId !== workspaceId) {
      throw new LomiError("NOT_FOUND", `No conversation with ID ${conversationId} in workspace ${workspaceId}; targets are IDs, never titles.`, {
        field: "conversationId",
      });
    }
    return c;
  }

  view(workspaceId: string, conversationId: string) {
    const c = this.conversation(workspaceId, conversationId);
    return {
      conversationId: c.conversationId,
      workspaceId: c.workspaceId,
      title: c.title,
      conversationRevision: c.revision.toString(),
      messages: c.messages.slice(-CHAT_MESSAGES_MAX).map((m) => ({ ...m })),
      draft: { text: c.draft.text, draftRevision: c.draft.revision.toString() },
    };
  }

  requireConversationRevision(c: Conversation, expected: string): void {
    requireRevision("expectedConversationRevision", expected, c.revision, "conversation");
  }

  requireDraftRevision(c: Conversation, expected: string): void {
    requireRevision("expectedDraftRevision", expected, c.draft.revision, "saved draft");
  }

  saveDraft(c: Conversation, text: string): string {
    c.draft = { text, revision: c.draft.revision + 1n };
    return c.draft.revision.toString();
  }

  /** A message joins the conversation, which moves its revision on by one. */
  append(c: Conversation, role: "user" | "assistant", text: string): { messageId: string; conversationRevision: string } {
    const messageId = this.random.id("msg-");
    c.messages.push({ messageId, role, text });
    c.revision += 1n;
    return { messageId, conversationRevision: c.revision.toString() };
  }
}
