import type { z } from "zod";
import { LomiError } from "../protocol/errors.js";
import { isPlainObject } from "./raw-call-guard.js";

/** An error reply quotes at most this much of what the client sent (a field name, a message). */
export const ECHO_LIMIT = 64;
const MESSAGE_LIMIT = 240;

/** A bounded excerpt of client input: a 1 MiB key must not come back as a 1 MiB reply. */
export function excerpt(text: string, limit = ECHO_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length} characters)`;
}

/**
 * Parses tool arguments, exactly as the client sent them, with the tool's strict schema; the first
 * problem becomes a typed error naming the field. The one place every tool's input is judged.
 */
export function parseArguments<S extends z.ZodType>(tool: string, schema: S, raw: unknown): z.infer<S> {
  const input = raw === undefined ? {} : raw;
  if (!isPlainObject(input)) {
    const kind = input === null ? "null" : Array.isArray(input) ? "an array" : `a ${typeof input}`;
    throw new LomiError("INVALID_ARGUMENT", `The arguments of ${tool} must be a JSON object, not ${kind}.`, { field: "arguments" });
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  // An unknown field explains a missing one (workspace_id for workspaceId): name it first.
  const issues = parsed.error.issues;
  const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const field = excerpt([...issue.path, issue.keys[0]].join("."));
    throw new LomiError("INVALID_ARGUMENT", `Unknown field "${field}": ${tool} does not accept it.`, { field });
  }
  const field = excerpt(issue.path.join("."));
  if (issue.code === "invalid_type" && issue.message.includes("received undefined")) {
    throw new LomiError("INVALID_ARGUMENT", `Missing required field "${field}" for ${tool}.`, { field });
  }
  throw new LomiError("INVALID_ARGUMENT", `Field "${field || "arguments"}" of ${tool}: ${excerpt(issue.message, MESSAGE_LIMIT)}`, {
    field: field || undefined,
  });
}
