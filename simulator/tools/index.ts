import type { NativeTool } from "../native-tool.js";
import { nativeAndroidLaunch } from "./android.js";
import { nativeChatDraftSave, nativeChatSend } from "./chat.js";
import { nativeGitCommit } from "./git.js";
import { nativeSettingsUpdate } from "./settings.js";
import { BROWSER_TOOLS } from "./browser.js";
import { nativeDirectoryCreate, nativeDirectoryDelete, nativeDirectoryRename } from "./directories.js";
import { nativeEditorApply } from "./editor.js";
import { nativeFileWrite } from "./files.js";
import { nativeTerminalCreate, nativeTerminalRun } from "./terminal.js";
import { nativeWorkspaceClose } from "./workspace-close.js";

/** Every tool Lomi can dispatch natively, by name. */
export const NATIVE_TOOLS: ReadonlyMap<string, NativeTool> = new Map(
  [
    nativeTerminalCreate,
    nativeTerminalRun,
    nativeSettingsUpdate,
    nativeChatDraftSave,
    nativeChatSend,
    nativeGitCommit,
    ...BROWSER_TOOLS,
    nativeAndroidLaunch,
    nativeFileWrite,
    nativeEditorApply,
    nativeDirectoryCreate,
    nativeDirectoryRename,
    nativeDirectoryDelete,
    nativeWorkspaceClose,
  ].map((t) => [t.name, t]),
);
