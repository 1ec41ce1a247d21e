import { When } from "@cucumber/cucumber";
import { fillPlaceholders } from "./placeholders.js";
import type { LomiWorld } from "./world.js";

When("{agent} reads the settings in workspace {string}", async function (this: LomiWorld, agent: string, workspaceId: string) {
  const { sections } = await this.callOk(agent, "lomi_settings_read", { workspaceId });
  for (const [section, { settingsRevision }] of Object.entries(sections)) this.tokens.set(`settings.${section}`, settingsRevision);
});

/** Sends the change with the section's settingsRevision the agent last read, fresh or not. */
When(
  "{agent} changes the {word} settings in workspace {string} as {string} to:",
  async function (this: LomiWorld, agent: string, section: string, workspaceId: string, alias: string, json: string) {
    const values = await fillPlaceholders(this, agent, json);
    await this.sendIn(alias, agent, "lomi_settings_update", workspaceId, { section, values, expectedSettingsRevision: this.token(`settings.${section}`) });
  },
);
