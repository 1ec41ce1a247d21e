import { LomiError } from "../../protocol/errors.js";
import { androidLaunch } from "../../protocol/tools/android.js";
import { recordEffect, type NativeTool } from "../native-tool.js";

/** Delivers a launch intent. Whether the app then shows its screen is Lomi's ground truth, not the operation's result. */
export const nativeAndroidLaunch: NativeTool<typeof androidLaunch.input> = {
  name: androidLaunch.name,
  args: androidLaunch.input,
  check(ctx, { ws, args }) {
    ctx.world.android.app(ctx.world.android.current(ws.panels, args.panelId, args.generation), args.appId);
  },
  start(ctx, op, settle) {
    const { panelId, generation, appId } = op.args;
    let app;
    try {
      app = ctx.world.android.app(ctx.world.android.current(op.ws.panels, panelId, generation), appId);
    } catch (error) {
      // A held dispatch released after the runtime restarted: the intent goes nowhere.
      if (!(error instanceof LomiError)) throw error;
      settle(op, { state: "failed", effectState: "none", result: null, error: { code: error.code, message: error.message } });
      return;
    }
    recordEffect(ctx, op, { what: "intent.delivered", panelId, generation, appId, activity: op.args.activity ?? null });
    if (app.opensScreen) recordEffect(ctx, op, { what: "screen.shown", panelId, generation, appId });
    settle(op, {
      state: "succeeded",
      effectState: "complete",
      result: { panelId, generation, appId, intentDelivered: true, screenConfirmed: false },
      error: null,
    });
  },
};
