import type { Mutant } from "./mutant.js";
import { okDataOf, sessionWrappingPicked, type Args, type CallContext } from "./rewriting-session.js";

/** How to put back what a save replaced: the request that restores it, less the revision read at the time of the undo. */
interface Undo {
  tool: string;
  args: Args;
  /** Reads the revision the restoring request must name now. */
  revision: (ctx: CallContext) => Promise<{ field: string; value: unknown } | undefined>;
}

/** Per broker instance, the undo of each save it admitted, by operationId. */
const undos = new WeakMap<object, Map<string, Undo>>();

const settingsOf = async ({ call }: CallContext, workspaceId: unknown) =>
  okDataOf(await call("lomi_settings_read", { workspaceId }))?.sections as Record<string, { settingsRevision: string; values: Args }> | undefined;
const draftOf = async ({ call }: CallContext, workspaceId: unknown, conversationId: unknown) =>
  okDataOf(await call("lomi_chat_read", { workspaceId, conversationId }))?.draft as { text: string; draftRevision: string } | undefined;

/** What a settings change or a draft save replaces, read before it is sent, as the request that would put it back. */
async function undoOf(ctx: CallContext, name: string, a: Args): Promise<Undo | undefined> {
  if (name === "lomi_settings_update") {
    const section = (await settingsOf(ctx, a.workspaceId))?.[String(a.section)];
    if (!section) return undefined;
    const values = Object.fromEntries(Object.keys(a.values as Args).map((k) => [k, section.values[k]]));
    return {
      tool: name,
      args: { ...a, values },
      revision: async (c) => ({ field: "expectedSettingsRevision", value: (await settingsOf(c, a.workspaceId))?.[String(a.section)]?.settingsRevision }),
    };
  }
  if (name === "lomi_chat_draft_save") {
    const draft = await draftOf(ctx, a.workspaceId, a.conversationId);
    if (!draft) return undefined;
    return {
      tool: name,
      args: { ...a, text: draft.text },
      revision: async (c) => ({ field: "expectedDraftRevision", value: (await draftOf(c, a.workspaceId, a.conversationId))?.draftRevision }),
    };
  }
  return undefined;
}

export const cancelSettledSaveUndone: Mutant = {
  name: "cancel-settled-save-undone",
  family: "CANCEL",
  // Cancel never undoes a completed effect (CANCEL-03); a completed save stays saved (CANCEL-43).
  breaks: ["CANCEL-03", "CANCEL-43"],
  defect:
    "the broker honours a cancel of a completed settings change or draft save by saving back what it replaced (read before the save), while it answers already_settled",
  parts: {
    // Only the saves it can undo (read before them, as it keeps their undo) and the cancels that undo them.
    session: sessionWrappingPicked(
      ({ tool }) => ["lomi_settings_update", "lomi_chat_draft_save", "lomi_operation_cancel"].includes(tool),
      async (ctx, name, args) => {
        const mine = undos.get(ctx.core) ?? new Map<string, Undo>();
        undos.set(ctx.core, mine);
        const undo = await undoOf(ctx, name, args);
        const reply = await ctx.call(name, args);
        const data = okDataOf(reply);
        if (undo && data?.duplicate === false) mine.set(String(data.operation.operationId), undo);
        const undoing =
          name === "lomi_operation_cancel" && data?.outcome === "already_settled" && data.operation?.state === "succeeded"
            ? mine.get(String(args.operationId))
            : undefined;
        if (undoing) {
          mine.delete(String(args.operationId));
          const revision = await undoing.revision(ctx);
          if (revision)
            await ctx.call(undoing.tool, { ...undoing.args, [revision.field]: revision.value, requestKey: `${String(undoing.args.requestKey)}.undo` });
        }
        return reply;
      },
    ),
  },
};
