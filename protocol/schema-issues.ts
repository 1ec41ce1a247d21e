import type { z } from "zod";

export interface SchemaIssue {
  /** Where, as a dotted path from the value checked ("data.removed"); "(root)" for the value itself. */
  path: string;
  message: string;
}

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/**
 * A branch of a union whose discriminator did not match: a literal or enum refused one level below the
 * union (the envelope's `status`, a result's `status`). Its other complaints are noise.
 */
const refusedDiscriminator = (branch: readonly Issue[]) => branch.some((i) => i.code === "invalid_value" && i.path.length === 1);

/**
 * The issues a person can act on. zod reports a union's failure as one "Invalid input" at the union,
 * with every branch's issues inside: this takes the branch the value was meant for (the one whose
 * discriminator matched, else the one with fewest complaints) and goes down into it, so a missing or
 * mistyped field is named by its path instead of "(root): Invalid input".
 */
export function specificIssues(issues: readonly Issue[], prefix: Path = []): SchemaIssue[] {
  return issues.flatMap((issue) => {
    const at = [...prefix, ...issue.path];
    if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const meant = issue.errors.filter((b) => !refusedDiscriminator(b));
      const branch = [...(meant.length > 0 ? meant : issue.errors)].sort((a, b) => a.length - b.length)[0]!;
      return specificIssues(branch, at);
    }
    return [{ path: at.map(String).join(".") || "(root)", message: issue.message }];
  });
}

/** "at data.removed: Invalid input: expected object, received undefined (and 2 more: data.kept, data.approvalId)". */
export function describeIssues(error: z.ZodError): string {
  const found = specificIssues(error.issues);
  const [first, ...rest] = found;
  if (!first) return "at (root): invalid";
  const more =
    rest.length === 0
      ? ""
      : ` (and ${rest.length} more: ${rest
          .slice(0, 5)
          .map((i) => i.path)
          .join(", ")}${rest.length > 5 ? ", …" : ""})`;
  return `at ${first.path}: ${first.message}${more}`;
}
