import type { CatalogueContract, ToolName } from "../../protocol/catalogue.js";

type OperationTool = Extract<CatalogueContract, { kind: "operation" }>["name"];

/**
 * The observations that show each operation tool's actual resource (AGENT-07: "Inspect the actual
 * resource"): the kit's reading of the catalogue, one entry per operation tool so a new tool must be placed.
 */
export const RESOURCE_OBSERVATIONS: Readonly<Record<OperationTool, readonly ToolName[]>> = {
  lomi_terminal_create: ["lomi_panel_list", "lomi_terminal_read", "lomi_capture"],
  lomi_terminal_run: ["lomi_terminal_read", "lomi_capture"],
  lomi_settings_update: ["lomi_settings_read"],
  lomi_chat_draft_save: ["lomi_chat_read"],
  lomi_chat_send: ["lomi_chat_read"],
  lomi_git_commit: ["lomi_git_status"],
  lomi_browser_open: ["lomi_panel_list", "lomi_browser_snapshot", "lomi_capture"],
  lomi_browser_navigate: ["lomi_browser_snapshot", "lomi_capture"],
  lomi_browser_click: ["lomi_browser_snapshot", "lomi_capture"],
  lomi_browser_upload: ["lomi_browser_snapshot", "lomi_capture"],
  lomi_android_launch: ["lomi_capture", "lomi_panel_list"],
  lomi_file_write: ["lomi_file_read", "lomi_directory_list"],
  lomi_editor_apply: ["lomi_editor_documents", "lomi_file_read"],
  lomi_directory_create: ["lomi_directory_list"],
  lomi_directory_rename: ["lomi_directory_list"],
  lomi_directory_delete: ["lomi_directory_list"],
  lomi_workspace_close: ["lomi_workspace_list", "lomi_panel_list"],
};

/** Whether `observation` shows the resource an operation of `tool` acts on. */
export const showsResourceOf = (tool: string, observation: string) =>
  (RESOURCE_OBSERVATIONS as Record<string, readonly string[]>)[tool]?.includes(observation) ?? false;
