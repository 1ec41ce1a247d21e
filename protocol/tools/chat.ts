import { z } from "zod";
import { decimalRevision, field, ID_FORMAT, id } from "../fields.js";
import { READ_ONLY, changes, type ObservationContract, type OperationContract } from "../tool-contract.js";
import { admissionData } from "./admission.js";

/** A conversation as a world seed declares it; it starts empty, with an empty saved draft. */
export const conversationSeed = z.strictObject({ conversationId: id, workspaceId: id, title: z.string() });

export const CHAT_MESSAGES_MAX = 50;
const TEXT_MAX = 20_000;
const conversationIdInput = id.describe(
  `The conversation's conversationId (an ID, never its title), as Lomi's Chat shows it; an unknown one is NOT_FOUND. ${ID_FORMAT}.`,
);

export const chatRead = {
  name: "lomi_chat_read",
  kind: "observation",
  title: "Read a Chat conversation",
  description: `Reads a Chat conversation by conversationId (an ID, never its title): its latest messages (at most ${CHAT_MESSAGES_MAX}) with the decimal conversationRevision lomi_chat_send expects, and the saved draft with the draftRevision lomi_chat_draft_save expects.`,
  hints: READ_ONLY,
  input: z.strictObject({ workspaceId: field.workspaceId, conversationId: conversationIdInput }),
  data: z.strictObject({
    conversationId: id,
    workspaceId: id,
    title: z.string(),
    conversationRevision: decimalRevision,
    messages: z.array(z.strictObject({ messageId: id, role: z.enum(["user", "assistant"]), text: z.string() })).max(CHAT_MESSAGES_MAX),
    draft: z.strictObject({ text: z.string(), draftRevision: decimalRevision }),
  }),
} satisfies ObservationContract;

const draftSaveResult = z.strictObject({ conversationId: id, draftRevision: decimalRevision });

export const chatDraftSave = {
  name: "lomi_chat_draft_save",
  kind: "operation",
  title: "Save a Chat draft",
  description:
    "Saves the draft of a conversation (an empty text clears it). expectedDraftRevision is the draftRevision from lomi_chat_read; a stale one is refused with nothing saved. Cancel cannot undo a completed save.",
  hints: changes({ destructive: true }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    projectId: field.anchorProjectId,
    conversationId: conversationIdInput,
    text: z.string().max(TEXT_MAX).describe(`The whole draft text to save, replacing the saved one: at most ${TEXT_MAX} characters; "" clears the draft.`),
    expectedDraftRevision: decimalRevision.describe(
      "The draft's draftRevision (a decimal string) from a fresh lomi_chat_read; a stale one is refused with REVISION_CONFLICT and nothing saved.",
    ),
    retryEpoch: field.retryEpoch,
    requestKey: field.requestKey,
  }),
  result: draftSaveResult,
  data: admissionData("lomi_chat_draft_save", draftSaveResult),
  revisionField: "expectedDraftRevision",
  serializeOn: "conversationId",
} satisfies OperationContract;

const chatSendResult = z.strictObject({
  conversationId: id,
  messageId: id,
  /** The provider received the message: true once sent, and cancel cannot take it back. */
  providerReceived: z.boolean(),
  /** The provider's reply, once it arrived; null when the operation ended before it did. */
  replyMessageId: id.nullable(),
  conversationRevision: decimalRevision,
});

export const chatSend = {
  name: "lomi_chat_send",
  kind: "operation",
  title: "Send a Chat message",
  description:
    "Sends a message to the conversation's provider (a provider send: cancel cannot undo it). expectedConversationRevision is the conversationRevision from lomi_chat_read; a stale one is refused with nothing sent. The operation runs, effectState partial, from the moment the provider has the message until its reply arrives, then succeeds; cancelling before the reply settles cancelled with effectState partial: the message stays sent.",
  hints: changes({ destructive: false, openWorld: true }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    projectId: field.anchorProjectId,
    conversationId: conversationIdInput,
    text: z.string().min(1).max(TEXT_MAX).describe(`The message to send to the provider: 1-${TEXT_MAX} characters.`),
    expectedConversationRevision: decimalRevision.describe(
      "The conversation's conversationRevision (a decimal string) from a fresh lomi_chat_read; a stale one is refused with REVISION_CONFLICT and nothing sent.",
    ),
    retryEpoch: field.retryEpoch,
    requestKey: field.requestKey,
  }),
  result: chatSendResult,
  data: admissionData("lomi_chat_send", chatSendResult),
  revisionField: "expectedConversationRevision",
  serializeOn: "conversationId",
} satisfies OperationContract;
