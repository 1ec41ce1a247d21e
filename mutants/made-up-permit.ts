import { createHash } from "node:crypto";

/** A receipt key or fingerprint a mutant makes up for a dispatch of its own (64 hex digits, as the bridge wants). */
export const madeUpKey = (text: string) => createHash("sha256").update(text).digest("hex");
