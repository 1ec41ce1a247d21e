import { gitCommit } from "../../protocol/tools/git.js";
import { recordEffect, type NativeTool } from "../native-tool.js";

export const nativeGitCommit: NativeTool<typeof gitCommit.input> = {
  name: gitCommit.name,
  args: gitCommit.input,
  check(ctx, { projectId }) {
    ctx.world.repositories.requireStaged(projectId);
  },
  start(ctx, op, settle) {
    const result = ctx.world.repositories.commit(op.projectId, op.args.message);
    recordEffect(ctx, op, { what: "git.committed", ...result });
    settle(op, { state: "succeeded", effectState: "complete", result, error: null });
  },
};
