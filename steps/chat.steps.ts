import { When } from "@cucumber/cucumber";
import type { LomiWorld } from "./world.js";

When("{agent} reads conversation {string} in workspace {string}", async function (this: LomiWorld, agent: string, conversationId: string, workspaceId: string) {
  const data = await this.callOk(agent, "lomi_chat_read", { workspaceId, conversationId });
  this.tokens.set(`conversation.${conversationId}`, data.conversationRevision);
  this.tokens.set(`draft.${conversationId}`, data.draft.draftRevision);
});

/** Saves with the draftRevision the agent last read, fresh or not. */
When(
  "{agent} saves the draft {string} of conversation {string} in workspace {string} as {string}",
  async function (this: LomiWorld, agent: string, text: string, conversationId: string, workspaceId: string, alias: string) {
    await this.sendIn(alias, agent, "lomi_chat_draft_save", workspaceId, {
      conversationId,
      text,
      expectedDraftRevision: this.token(`draft.${conversationId}`),
    });
  },
);

/** Sends with the conversationRevision the agent last read, fresh or not. */
When(
  "{agent} sends {string} to conversation {string} in workspace {string} as {string}",
  async function (this: LomiWorld, agent: string, text: string, conversationId: string, workspaceId: string, alias: string) {
    await this.sendIn(alias, agent, "lomi_chat_send", workspaceId, {
      conversationId,
      text,
      expectedConversationRevision: this.token(`conversation.${conversationId}`),
    });
  },
);
