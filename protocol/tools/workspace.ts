import { z } from "zod";
import { decimalRevision, field, id, isoTime, retryEpoch } from "../fields.js";
import { READ_ONLY, changes, type ObservationContract } from "../tool-contract.js";

const projectSummary = z.strictObject({ projectId: id, name: z.string() });

export const workspaceList = {
  name: "lomi_workspace_list",
  kind: "observation",
  title: "List workspaces",
  description:
    "Lists the Lomi workspaces this pairing can see, with each one's current decimal domainRevision and whether it is approved for this pairing. Answers PAIRING_REQUIRED until the user approves the pending session in Lomi Settings.",
  hints: READ_ONLY,
  input: z.strictObject({}),
  data: z.strictObject({
    workspaces: z.array(z.strictObject({ workspaceId: id, name: z.string(), approved: z.boolean(), domainRevision: decimalRevision })),
  }),
} satisfies ObservationContract;

/** How long a retry epoch lomi_connect gives admits new submissions, on Lomi's clock (EPOCH-02). */
export const RETRY_EPOCH_VALIDITY_MS = 24 * 60 * 60 * 1000;

export const connect = {
  name: "lomi_connect",
  kind: "observation",
  title: "Connect to a workspace",
  description:
    "Connects this MCP connection to an approved workspace. Returns a fresh retryEpoch (valid 24 hours on Lomi's clock, bound to this broker instance and this connection), the approved projects and the current domainRevision.",
  hints: changes({ destructive: false, idempotent: false }),
  input: z.strictObject({ workspaceId: field.workspaceId }),
  data: z.strictObject({
    connectionId: id,
    workspaceId: id,
    retryEpoch,
    retryEpochExpiresAt: isoTime,
    projects: z.array(projectSummary).min(1),
    domainRevision: decimalRevision,
  }),
} satisfies ObservationContract;

const panelBase = { panelId: id, projectId: id, title: z.string() };

/** Each panel kind carries the identity of its current runtime; a retained panel can outlive one runtime. */
export const terminalPanelSchema = z.strictObject({ ...panelBase, kind: z.literal("terminal"), cwdRelative: z.string(), terminalSessionId: id.nullable() });
export const browserPanelSchema = z.strictObject({ ...panelBase, kind: z.literal("browser"), browserGeneration: id.nullable(), url: z.string().nullable() });
export const androidPanelSchema = z.strictObject({ ...panelBase, kind: z.literal("android"), generation: id.nullable(), device: z.string() });
export const panelSchema = z.discriminatedUnion("kind", [terminalPanelSchema, browserPanelSchema, androidPanelSchema]);
export type PanelView = z.infer<typeof panelSchema>;

export const panelList = {
  name: "lomi_panel_list",
  kind: "observation",
  title: "List panels",
  description:
    "Lists the panels of an approved workspace with their current runtime identities (terminalSessionId, browserGeneration, generation) and the workspace's decimal domainRevision for layout mutations.",
  hints: READ_ONLY,
  input: z.strictObject({ workspaceId: field.workspaceId }),
  data: z.strictObject({ workspaceId: id, domainRevision: decimalRevision, panels: z.array(panelSchema) }),
} satisfies ObservationContract;
