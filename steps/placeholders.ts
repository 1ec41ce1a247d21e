import { configError } from "../harness/harness-error.js";
import type { LomiWorld } from "./world.js";

/**
 * Fills {{name}} and {{name:arg}} in a JSON docstring with what the scenario has observed:
 * epoch[:workspace], revision:workspace, op:alias, session:alias (the terminalSessionId of alias's result),
 * lease:alias (a lease acquired under that name), generation:panelId (the Android generation last observed),
 * currentSession:alias (the terminalSessionId last observed for the panel alias created) and
 * disk|directory|entry|document|buffer:path (steps/file-observations.ts).
 */
export async function fillPlaceholders(world: LomiWorld, agentName: string, text: string): Promise<Record<string, unknown>> {
  const filled = await fillText(world, agentName, text);
  try {
    return JSON.parse(filled);
  } catch (error) {
    throw configError(`the step's JSON is not valid after filling placeholders: ${(error as Error).message}\n${filled}`);
  }
}

/** The text with each placeholder replaced by its value. */
export async function fillText(world: LomiWorld, agentName: string, text: string): Promise<string> {
  let filled = text;
  for (const [whole, name, arg] of text.matchAll(/\{\{(\w+)(?::([\w./-]+))?\}\}/g)) {
    filled = filled.replace(whole, await valueOf(world, agentName, name!, arg));
  }
  return filled;
}

async function valueOf(world: LomiWorld, agentName: string, name: string, arg: string | undefined): Promise<string> {
  switch (name) {
    case "epoch": {
      const connects = world.agent(agentName).connects;
      const workspaceId = arg ?? [...connects.keys()].at(-1);
      if (!workspaceId) throw configError(`${agentName} has no retry epoch yet`);
      return world.epochFor(agentName, workspaceId).retryEpoch;
    }
    case "revision": {
      const rev = arg && world.revisions.get(arg);
      if (!rev) throw configError(`no domainRevision observed for ${arg ?? "(no workspace named)"}`);
      return rev;
    }
    case "op":
      return world.operationId(arg ?? "");
    case "session": {
      const receipt = await world.settledAs(arg ?? "", "lomi_terminal_create");
      const session = receipt.result?.terminalSessionId;
      if (typeof session !== "string") throw configError(`operation "${arg}" has no terminalSessionId in its result`);
      return session;
    }
    case "lease":
      return world.lease(arg ?? "").leaseId;
    case "generation":
      return observedRuntime(world, arg ?? "");
    case "currentSession": {
      const panelId = (await world.settledAs(arg ?? "", "lomi_terminal_create")).result?.panelId;
      if (typeof panelId !== "string") throw configError(`operation "${arg}" has no panelId in its result`);
      return observedRuntime(world, panelId);
    }
    default: {
      const observed = world.fileObservations.placeholder(name, arg ?? "");
      if (observed === undefined) throw configError(`unknown placeholder {{${name}}}`);
      return observed;
    }
  }
}

/** The runtime identity of a panel as the last panel list showed it. */
export function observedRuntime(world: LomiWorld, panelId: string): string {
  const runtime = world.runtimes.get(panelId);
  if (!runtime) throw configError(`no runtime observed for panel ${panelId}; list the panels first`);
  return runtime;
}
