import { z } from "zod";
import { decimalRevision, field, ID_FORMAT, id, relativePath } from "../fields.js";
import { changes, type ObservationContract, type OperationContract } from "../tool-contract.js";
import { admissionData } from "./admission.js";

/** Any URL is a URL (shape); which schemes a browser panel may load is Lomi's native rule. */
const pageUrl = z
  .url()
  .max(2048)
  .describe("The absolute URL to load, such as https://example.test/ (at most 2048 characters); Lomi refuses schemes a browser panel may not load.");

/** The explicit browser panel and the exact runtime in it: a retained panel can outlive one runtime. */
const browserRuntime = { panelId: id, browserGeneration: id };
const browserRuntimeInput = { panelId: field.panelId, browserGeneration: field.browserGeneration };

/** A reference a snapshot handed out, described by where it comes from. */
const fromSnapshot = (what: string) =>
  id.describe(
    `The ${what} from the latest lomi_browser_snapshot of this runtime; one from an older snapshot or an earlier page is refused with STALE_REFERENCE. ${ID_FORMAT}.`,
  );

/** Where a click or an upload lands: the document, the snapshot and the element in it, never a selector. */
const elementTarget = {
  ...browserRuntimeInput,
  navigationId: fromSnapshot("navigationId (the loaded document)"),
  snapshotId: fromSnapshot("snapshotId"),
  frameId: fromSnapshot("frameId of the element's frame"),
  elementRef: fromSnapshot("elementRef of the element"),
};

const operationIdentity = { workspaceId: field.workspaceId, projectId: field.anchorProjectId, retryEpoch: field.retryEpoch, requestKey: field.requestKey };

/** A loaded document: each load has its own navigationId. */
const loadedPage = { navigationId: id, url: z.string(), title: z.string(), httpStatus: z.number().int().min(100).max(599) };

const browserOpenResult = z.strictObject({
  panelId: id,
  browserGeneration: id,
  domainRevision: decimalRevision,
  /** Null when the panel opened but its first page did not load (effectState partial). */
  page: z.strictObject(loadedPage).nullable(),
});

export const browserOpen = {
  name: "lomi_browser_open",
  kind: "operation",
  title: "Open a browser panel",
  description:
    "Opens a browser panel on a URL in a workspace (a layout mutation: expectedRevision must be the current domainRevision). Returns an operationId: admission, not completion. It succeeds once the page has loaded; the result carries the panel, its browserGeneration and the first navigationId.",
  hints: changes({ destructive: false, openWorld: true }),
  input: z.strictObject({ ...operationIdentity, url: pageUrl, expectedRevision: field.expectedRevision }),
  result: browserOpenResult,
  data: admissionData("lomi_browser_open", browserOpenResult),
  revisionField: "expectedRevision",
  serializeOn: "workspaceId",
} satisfies OperationContract;

const browserNavigateResult = z.strictObject({ ...browserRuntime, ...loadedPage });

export const browserNavigate = {
  name: "lomi_browser_navigate",
  kind: "operation",
  title: "Navigate a browser panel",
  description:
    "Loads a URL in the exact browser runtime named by panelId and browserGeneration (a restarted runtime is stale). It succeeds once the page has loaded, with a new navigationId: references from the previous document are stale from then on.",
  hints: changes({ destructive: true, openWorld: true }),
  input: z.strictObject({ ...operationIdentity, ...browserRuntimeInput, url: pageUrl }),
  result: browserNavigateResult,
  data: admissionData("lomi_browser_navigate", browserNavigateResult),
  generationField: "browserGeneration",
  serializeOn: "panelId",
} satisfies OperationContract;

export const ELEMENT_ROLES = ["link", "button", "file-input"] as const;

const snapshotElement = z.strictObject({
  elementRef: id,
  frameId: id,
  role: z.enum(ELEMENT_ROLES),
  name: z.string(),
  /** Links only: where a click leads. */
  href: z.string().nullable(),
  /** File inputs only: the names of the files attached. */
  files: z.array(z.string()).nullable(),
});

export const browserSnapshot = {
  name: "lomi_browser_snapshot",
  kind: "observation",
  title: "Snapshot a browser page",
  description:
    "Lists the interactive elements of the current document of a browser runtime, each with an elementRef and the frameId of its frame. References are scoped: only the latest snapshot of the current navigation is valid; an older snapshot's or document's references are refused as STALE_REFERENCE.",
  hints: changes({ destructive: false, idempotent: false }),
  input: z.strictObject({ workspaceId: field.workspaceId, ...browserRuntimeInput }),
  data: z.strictObject({
    ...browserRuntime,
    navigationId: id,
    snapshotId: id,
    url: z.string(),
    title: z.string(),
    frames: z.array(z.strictObject({ frameId: id, parentFrameId: id.nullable(), url: z.string() })).min(1),
    elements: z.array(snapshotElement),
  }),
} satisfies ObservationContract;

const browserClickResult = z.strictObject({
  ...browserRuntime,
  /** The document the click was dispatched in. */
  navigationId: id,
  elementRef: id,
  clickDispatched: z.literal(true),
  /** A link starts a new navigation; its load is not part of this operation's postcondition. */
  startedNavigationId: id.nullable(),
});

export const browserClick = {
  name: "lomi_browser_click",
  kind: "operation",
  title: "Click an element of a browser page",
  description:
    "Dispatches a click on an element named by the navigationId, snapshotId, frameId and elementRef of the latest snapshot. A reference from an older snapshot or navigation is refused as STALE_REFERENCE with nothing dispatched. Succeeds once the click is dispatched; a link's navigation is reported, not awaited.",
  hints: changes({ destructive: true, openWorld: true }),
  input: z.strictObject({ ...operationIdentity, ...elementTarget }),
  result: browserClickResult,
  data: admissionData("lomi_browser_click", browserClickResult),
  generationField: "browserGeneration",
  serializeOn: "panelId",
} satisfies OperationContract;

export const SERVER_ACCEPTANCE = ["not_confirmed"] as const;

const browserUploadResult = z.strictObject({
  ...browserRuntime,
  navigationId: id,
  elementRef: id,
  fileName: z.string(),
  attached: z.literal(true),
  eventsDispatched: z.array(z.enum(["input", "change"])),
  /** Attachment and event dispatch are all Lomi can confirm; no server has been heard from. */
  serverAcceptance: z.enum(SERVER_ACCEPTANCE),
});

export const browserUpload = {
  name: "lomi_browser_upload",
  kind: "operation",
  title: "Attach a file to a file input",
  description:
    "Attaches a project file (fileRelative) to a file input of the latest snapshot and dispatches its input and change events. Success proves attachment and event dispatch, not that any server accepted the file (serverAcceptance: not_confirmed). Cancel cannot undo an upload.",
  hints: changes({ destructive: true, openWorld: true }),
  input: z.strictObject({
    ...operationIdentity,
    ...elementTarget,
    fileRelative: relativePath
      .min(1)
      .describe(
        "The project file to attach, relative to the project root with / separators (1-1024 characters), as lomi_directory_list shows it; it must exist inside the project.",
      ),
  }),
  result: browserUploadResult,
  data: admissionData("lomi_browser_upload", browserUploadResult),
  generationField: "browserGeneration",
  serializeOn: "panelId",
} satisfies OperationContract;

/** What the broker asks Lomi for a snapshot over the native bridge. */
export const browserSnapshotQuery = browserSnapshot.input.extend({ kind: z.literal("browser-snapshot") });
