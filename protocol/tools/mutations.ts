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

export const anyReceiptSchema = z.discriminatedUnion(
  "tool",
  MUTATIONS.map((m) => receiptSchema(m.name, m.result)) as unknown as [
    ReturnType<typeof receiptSchema>,
    ...ReturnType<typeof receiptSchema>[],
  ],
);
export type Receipt = z.infer<typeof anyReceiptSchema>;
