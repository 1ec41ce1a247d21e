import { When } from "@cucumber/cucumber";
import type { LomiWorld } from "./world.js";

When(
  "{agent} commits {string} in project {string} of workspace {string} as {string}",
  async function (this: LomiWorld, agent: string, message: string, projectId: string, workspaceId: string, alias: string) {
    await this.sendIn(alias, agent, "lomi_git_commit", workspaceId, { projectId, message });
  },
);
