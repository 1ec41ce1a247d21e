import type { z } from "zod";
import { LomiError } from "../protocol/errors.js";

/** Parses tool arguments with the tool's strict schema; the first problem becomes a typed error naming the field. */
export function parseArguments<S extends z.ZodType>(tool: string, schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  // An unknown field explains a missing one (workspace_id for workspaceId): name it first.
  const issues = parsed.error.issues;
  const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const field = [...issue.path, issue.keys[0]].join(".");
    throw new LomiError("INVALID_ARGUMENT", `Unknown field "${field}": ${tool} does not accept it.`, { field });
  }
  const field = issue.path.join(".");
  if (issue.code === "invalid_type" && issue.message.includes("received undefined")) {
    throw new LomiError("INVALID_ARGUMENT", `Missing required field "${field}" for ${tool}.`, { field });
  }
  throw new LomiError("INVALID_ARGUMENT", `Field "${field || "arguments"}" of ${tool}: ${issue.message}`, { field: field || undefined });
}
