import { z } from "zod";

// Field schemas shared by tool inputs, receipts and the native bridge.
export const id = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, "an ID: letters, digits, . _ : -");
export const decimalRevision = z.string().regex(/^(0|[1-9][0-9]{0,18})$/, 'a decimal revision such as "7"');
export const retryEpoch = z
  .string()
  .min(8)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, "a retry epoch from lomi_connect");
export const requestKey = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, "a request key: letters, digits, . _ : -");
export const isoTime = z.iso.datetime();
/** Paths relative to the project root; the native validator refuses ones that escape it. */
export const relativePath = z.string().max(1024);
/** A page position a bounded read answered (its nextCursor). */
export const cursor = z.string().regex(/^[0-9]{1,19}$/, "a cursor from an earlier page");

/** How every ID reads, said once for the descriptions below. */
export const ID_FORMAT = "1-128 characters: letters, digits, . _ : - (starting with a letter or digit)";

// Input fields many tools share, described once: an agent reads in tools/list where each value comes
// from, its format and its limits, and every tool says it the same way.
export const field = {
  workspaceId: id.describe(
    `The workspace's workspaceId from lomi_workspace_list (an explicit ID, never its display name); the workspace must be approved for this pairing. ${ID_FORMAT}.`,
  ),
  anchorProjectId: id
    .describe(
      `The project the request belongs to, a projectId from lomi_connect's projects. Needed only when the workspace has more than one approved project (otherwise PROJECT_REQUIRED); with a single project, leave it out. ${ID_FORMAT}.`,
    )
    .optional(),
  retryEpoch: retryEpoch.describe(
    "The retryEpoch lomi_connect returned on this connection for this workspace: 8-128 characters (letters, digits, _ -), valid for new requests 24 hours on Lomi's clock (retryEpochExpiresAt), on this broker instance and this connection only; after that, or after a reconnect or a broker restart, call lomi_connect for a new one. With requestKey and the tool it is the retry identity of the operation: a resend of an earlier request keeps its original retryEpoch, even an expired one.",
  ),
  requestKey: requestKey.describe(
    `Your own key for this one intended change, chosen by you (${ID_FORMAT}). To retry after a lost reply or a timeout, send the same retryEpoch, requestKey and exactly the same arguments: you get the earlier operation back (duplicate true) and nothing runs twice. A new change needs a new key; the same key with other arguments is refused with IDEMPOTENCY_CONFLICT.`,
  ),
  operationId: id.describe(`The operationId an operation tool answered (data.operation.operationId) or lomi_operation_lookup found. ${ID_FORMAT}.`),
  panelId: id.describe(`The panel's panelId from lomi_panel_list or from the result of the operation that created the panel. ${ID_FORMAT}.`),
  terminalSessionId: id.describe(
    `The terminal's current terminalSessionId from lomi_panel_list or lomi_terminal_create's result; a restarted terminal has a new one and the old one is refused with STALE_RUNTIME. ${ID_FORMAT}.`,
  ),
  browserGeneration: id.describe(
    `The browser panel's current browserGeneration from lomi_panel_list or the result of lomi_browser_open; a restarted browser runtime has a new one and the old one is refused with STALE_RUNTIME. ${ID_FORMAT}.`,
  ),
  androidGeneration: id.describe(
    `The Android runtime's current generation from lomi_panel_list; a restarted runtime has a new one and the old one is refused with STALE_RUNTIME. ${ID_FORMAT}.`,
  ),
  leaseId: id.describe(
    `The leaseId lomi_lease_acquire answered (a terminal created by lomi_terminal_create also comes with one in its result). A later acquire on the same runtime revokes it (LEASE_EXPIRED). ${ID_FORMAT}.`,
  ),
  expectedRevision: decimalRevision.describe(
    'The workspace\'s current domainRevision, a decimal string such as "7", as lomi_panel_list, lomi_connect or lomi_workspace_list last showed it. Any layout change moves it; a stale value is refused with REVISION_CONFLICT and nothing done: read it again and decide again.',
  ),
  cursor: cursor.describe("Where to continue: the nextCursor of the previous page (decimal digits). Leave it out to read from the beginning.").optional(),
} as const;

/** A project named explicitly, for the role it plays in the tool. */
export function namedProject(role: string) {
  return id.describe(`${role}: a projectId from the projects lomi_connect returned for this workspace. ${ID_FORMAT}.`);
}

/** The page size of a bounded read: at most max, default def. */
export function pageLimit(unit: string, max: number, def: number) {
  return z.number().int().min(1).max(max).describe(`How many ${unit} to return at most: 1-${max}, default ${def}.`).optional();
}
