import { createHash } from "node:crypto";

/** JSON with object keys sorted at every depth, so equal values always hash the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export interface RetryIdentity {
  pairingId: string;
  retryEpoch: string;
  projectId: string;
  tool: string;
  requestKey: string;
}

/** The receipt key binds the pairing, retry epoch, project, tool and request key. */
export function receiptKeyOf(identity: RetryIdentity): string {
  return sha256Hex(canonicalJson(["lomi-receipt-key/1", identity.pairingId, identity.retryEpoch, identity.projectId, identity.tool, identity.requestKey]));
}

/** The fingerprint binds the exact payload, the target generation and the relevant revision. */
export function fingerprintOf(payload: Record<string, unknown>, generation: unknown, revision: unknown): string {
  return sha256Hex(canonicalJson({ v: "lomi-fingerprint/1", payload, generation: generation ?? null, revision: revision ?? null }));
}
