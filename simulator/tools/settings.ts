import type { z } from "zod";
import { LomiError } from "../../protocol/errors.js";
import { SECTIONS_NEEDING_APPROVAL, settingsUpdate } from "../../protocol/tools/settings.js";
import { recordEffect, type NativeContext, type NativeOperation, type NativeTool, type Settle } from "../native-tool.js";

type UpdateOp = NativeOperation<z.infer<typeof settingsUpdate.input>>;

/** Saves the change, if the section still is as the agent saw it: the user may have taken a while. */
function save(ctx: NativeContext, op: UpdateOp, settle: Settle): void {
  const { section, values, expectedSettingsRevision } = op.args;
  try {
    ctx.world.settings.check(section, values, expectedSettingsRevision);
  } catch (error) {
    if (!(error instanceof LomiError)) throw error;
    settle(op, { state: "failed", effectState: "none", result: null, error: { code: error.code, message: error.message } });
    return;
  }
  const result = ctx.world.settings.apply(section, values);
  recordEffect(ctx, op, { what: "settings.changed", section, values, settingsRevision: result.settingsRevision });
  settle(op, { state: "succeeded", effectState: "complete", result, error: null });
}

export const nativeSettingsUpdate: NativeTool<typeof settingsUpdate.input> = {
  name: settingsUpdate.name,
  args: settingsUpdate.input,
  check(ctx, { args }) {
    ctx.world.settings.check(args.section, args.values, args.expectedSettingsRevision);
  },
  start(ctx, op, settle) {
    if (!SECTIONS_NEEDING_APPROVAL.has(op.args.section)) {
      save(ctx, op, settle);
      return;
    }
    // An agent does not widen its own permissions: the user decides in Lomi.
    ctx.decisions.ask(op, `Let ${op.pairing.clientName} change the ${op.args.section} settings to ${JSON.stringify(op.args.values)}?`, () =>
      save(ctx, op, settle),
    );
  },
};
