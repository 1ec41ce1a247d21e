/**
 * What a caught value says. `catch` binds `unknown` (a throw may carry anything), so these are the one
 * place that narrows it: an Error's message and a system error's code, else the value's own text.
 */

/** An Error's message, else the thrown value as text. */
export const messageOf = (thrown: unknown): string => (thrown instanceof Error ? thrown.message : String(thrown));

/** A system error's code ("ENOENT", "EACCES"), if the thrown value carries one. */
export const errnoOf = (thrown: unknown): string | undefined => (thrown instanceof Error && "code" in thrown && typeof thrown.code === "string" ? thrown.code : undefined);
