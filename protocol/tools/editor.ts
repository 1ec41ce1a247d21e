import { z } from "zod";
import { decimalRevision, field, ID_FORMAT, id } from "../fields.js";
import { READ_ONLY, changes, type ObservationContract, type OperationContract } from "../tool-contract.js";
import { admissionData } from "./admission.js";

export const EDITOR_ENCODINGS = ["utf-8", "latin1"] as const;
const MAX_EDITS = 100;

export const editorDocumentSchema = z.strictObject({
  documentId: id,
  projectId: id,
  path: z.string(),
  /** A decimal counter that moves on every change of the buffer, by the agent or the user. */
  bufferRevision: decimalRevision,
  /** The buffer, encoded in the document's encoding, differs from the bytes on disk. */
  dirty: z.boolean(),
  encoding: z.enum(EDITOR_ENCODINGS),
  text: z.string(),
});

export const editorDocuments = {
  name: "lomi_editor_documents",
  kind: "observation",
  title: "List the shared editor documents",
  description:
    "Lists the documents open in Lomi's shared editor (the user opens them; the agent edits them with lomi_editor_apply): documentId, path, the current bufferRevision, whether the buffer is dirty (differs from disk), its encoding and its text.",
  hints: READ_ONLY,
  input: z.strictObject({ workspaceId: field.workspaceId, projectId: field.anchorProjectId }),
  data: z.strictObject({ workspaceId: id, documents: z.array(editorDocumentSchema) }),
} satisfies ObservationContract;

/** Offsets in UTF-16 code units of the buffer at expectedBufferRevision. */
const bufferOffset = (what: string) =>
  z.number().int().nonnegative().describe(`${what}: an offset in UTF-16 code units of the buffer at expectedBufferRevision, from 0 up to the text's length.`);
const textEdit = z.strictObject({
  start: bufferOffset("Where the replaced range starts"),
  end: bufferOffset("Where the replaced range ends (exclusive; equal to start to insert)"),
  text: z
    .string()
    .max(1024 * 1024)
    .describe('The text that replaces [start, end): at most 1 MiB; "" deletes the range.'),
});

const editorApplyResult = z.strictObject({
  documentId: id,
  bufferRevision: decimalRevision,
  dirty: z.boolean(),
  length: z.number().int().nonnegative(),
});

export const editorApply = {
  name: "lomi_editor_apply",
  kind: "operation",
  title: "Edit a shared editor document",
  description:
    "Applies text edits to the buffer of the exact shared editor document (documentId) at expectedBufferRevision; the disk is not written, the document becomes dirty. Edits replace [start, end) in UTF-16 code units of that buffer and must not overlap. A stale bufferRevision is refused with REVISION_CONFLICT and the buffer left as it is.",
  hints: changes({ destructive: true }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    projectId: field.anchorProjectId,
    documentId: id.describe(`The document's documentId from lomi_editor_documents. ${ID_FORMAT}.`),
    expectedBufferRevision: decimalRevision.describe(
      "The document's bufferRevision (a decimal string) from a fresh lomi_editor_documents; the user's typing moves it too. A stale one is refused with REVISION_CONFLICT and the buffer left as it is.",
    ),
    edits: z
      .array(textEdit)
      .min(1)
      .max(MAX_EDITS)
      .describe(`1-${MAX_EDITS} edits, all against the buffer at expectedBufferRevision; their ranges must not overlap.`),
    retryEpoch: field.retryEpoch,
    requestKey: field.requestKey,
  }),
  result: editorApplyResult,
  data: admissionData("lomi_editor_apply", editorApplyResult),
  revisionField: "expectedBufferRevision",
  generationField: "documentId",
  serializeOn: "workspaceId",
} satisfies OperationContract;
