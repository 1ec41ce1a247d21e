import { z } from "zod";
import { field, id, namedProject, relativePath } from "../fields.js";
import { READ_ONLY, changes, type ObservationContract, type OperationContract } from "../tool-contract.js";
import { admissionData } from "./admission.js";

/** A project's repository as a world seed declares it; a project not named has a clean repository. */
export const repositorySeed = z.strictObject({
  projectId: id,
  branch: z.string().min(1).default("main"),
  staged: z.array(relativePath).default([]),
});

export const GIT_COMMITS_MAX = 20;
const commitId = z.string().regex(/^[0-9a-f]{40}$/, "a commit ID: 40 hex digits");

export const gitStatus = {
  name: "lomi_git_status",
  kind: "observation",
  title: "Read a project's Git status",
  description: `Reads the repository of a project: its branch, HEAD, the staged paths a commit would take, and the latest commits (at most ${GIT_COMMITS_MAX}, newest first).`,
  hints: READ_ONLY,
  input: z.strictObject({ workspaceId: field.workspaceId, projectId: namedProject("The project whose repository to read") }),
  data: z.strictObject({
    projectId: id,
    branch: z.string(),
    head: commitId.nullable(),
    staged: z.array(z.string()),
    commits: z.array(z.strictObject({ commitId, message: z.string(), paths: z.array(z.string()) })).max(GIT_COMMITS_MAX),
  }),
} satisfies ObservationContract;

const gitCommitResult = z.strictObject({ projectId: id, branch: z.string(), commitId, paths: z.array(z.string()) });

export const gitCommit = {
  name: "lomi_git_commit",
  kind: "operation",
  title: "Commit the staged changes",
  description:
    "Commits what is staged in the project's repository (a Git change: cancel cannot undo it). projectId names the repository. With nothing staged the request is refused with NOTHING_TO_COMMIT and nothing is dispatched.",
  hints: changes({ destructive: false }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    projectId: namedProject("The project whose repository the commit goes to"),
    message: z.string().min(1).max(5000).describe("The commit message: 1-5000 characters."),
    retryEpoch: field.retryEpoch,
    requestKey: field.requestKey,
  }),
  result: gitCommitResult,
  data: admissionData("lomi_git_commit", gitCommitResult),
  serializeOn: "projectId",
} satisfies OperationContract;
