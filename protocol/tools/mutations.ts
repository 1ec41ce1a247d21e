import { z } from "zod";
import { receiptSchema } from "../receipt.js";
import { androidLaunch } from "./android.js";
import { browserClick, browserNavigate, browserOpen, browserUpload } from "./browser.js";
import { chatDraftSave, chatSend } from "./chat.js";
import { gitCommit } from "./git.js";
import { settingsUpdate } from "./settings.js";
import { directoryCreate, directoryDelete, directoryRename } from "./directories.js";
import { editorApply } from "./editor.js";
import { fileWrite } from "./files.js";
import { terminalCreate, terminalRun } from "./terminal.js";
import { workspaceClose } from "./workspace-close.js";

/** Every operation tool: the ones with durable receipts, retry identity and an operationId. */
export const MUTATIONS = [
  terminalCreate,
  terminalRun,
  settingsUpdate,
  chatDraftSave,
  chatSend,
  gitCommit,
  browserOpen,
  browserNavigate,
  browserClick,
  browserUpload,
  androidLaunch,
  fileWrite,
  editorApply,
  directoryCreate,
  directoryRename,
  directoryDelete,
  workspaceClose,
] as const;
export type MutationName = (typeof MUTATIONS)[number]["name"];
export const MUTATION_NAMES = MUTATIONS.map((m) => m.name) as [MutationName, ...MutationName[]];

/** Each operation tool's receipt schema, its result typed by the tool: `map` cannot say so itself. */
type ReceiptSchemaOf<M> = M extends { name: infer N extends string; result: infer R extends z.ZodType } ? ReturnType<typeof receiptSchema<N, R>> : never;
type ReceiptSchemas<T extends readonly unknown[]> = { -readonly [K in keyof T]: ReceiptSchemaOf<T[K]> };

export const anyReceiptSchema = z.discriminatedUnion(
  "tool",
  MUTATIONS.map((m) => receiptSchema(m.name, m.result)) as unknown as ReceiptSchemas<typeof MUTATIONS>,
);
export type Receipt = z.infer<typeof anyReceiptSchema>;
/** The receipt of one operation tool, its result typed by that tool's contract. */
export type ReceiptOf<T extends MutationName> = Extract<Receipt, { tool: T }>;
