import { LomiError } from "../protocol/errors.js";
import type { Random } from "../protocol/ports.js";
import type { RuntimeRef } from "../protocol/tools/input.js";

/** Why a lease stopped granting input. */
export type RevokeReason = "taken-over" | "replaced" | "runtime-restarted" | "broker-restarted";

const REVOKE_MESSAGES: Record<RevokeReason, string> = {
  "taken-over": "another session took over this runtime",
  replaced: "a newer lease was acquired for this runtime",
  "runtime-restarted": "the runtime restarted",
  "broker-restarted": "the broker restarted, and a restart does not resume old authority",
};

export interface Lease {
  leaseId: string;
  /** The runtime it grants input to: a terminal session or an Android generation. */
  runtime: string;
  pairingId: string;
  /** The broker instance serving the pairing when the lease was granted. */
  brokerInstanceId: string | undefined;
  revoked: RevokeReason | null;
}

/** One key per exact runtime: a terminal session, or one generation of an Android runtime. */
export function runtimeKey(runtime: RuntimeRef): string {
  return runtime.kind === "terminal" ? `terminal:${runtime.terminalSessionId}` : `android:${runtime.generation}`;
}

/** Leases: temporary input authority for one runtime, one holder at a time. Revoked leases are kept, to answer LEASE_EXPIRED. */
export class LeaseBook {
  private readonly leases = new Map<string, Lease>();
  /** The broker instance that last asked for each pairing. */
  private readonly instances = new Map<string, string>();

  constructor(private readonly random: Random) {}

  /** A new lease for the runtime; whoever held it before loses it. */
  grant(runtime: string, pairingId: string): Lease {
    for (const held of this.active((l) => l.runtime === runtime)) held.revoked = held.pairingId === pairingId ? "replaced" : "taken-over";
    const lease: Lease = { leaseId: this.random.id("lease-"), runtime, pairingId, brokerInstanceId: this.instances.get(pairingId), revoked: null };
    this.leases.set(lease.leaseId, lease);
    return lease;
  }

  revokeRuntime(runtime: string): void {
    for (const held of this.active((l) => l.runtime === runtime)) held.revoked = "runtime-restarted";
  }

  /** A pairing now served by another broker instance keeps none of the leases granted under the earlier one. */
  bindInstance(pairingId: string, brokerInstanceId: string): void {
    const previous = this.instances.get(pairingId);
    this.instances.set(pairingId, brokerInstanceId);
    if (previous === undefined || previous === brokerInstanceId) return;
    for (const held of this.active((l) => l.pairingId === pairingId)) held.revoked = "broker-restarted";
  }

  /** The lease, if it is this pairing's current lease on this runtime; otherwise the typed reason. */
  require(leaseId: string, pairingId: string, runtime: string): Lease {
    const lease = this.leases.get(leaseId);
    if (!lease || lease.pairingId !== pairingId) {
      throw new LomiError("LEASE_REQUIRED", `Lease ${leaseId} grants this session no input; acquire one with lomi_lease_acquire.`, { field: "leaseId" });
    }
    if (lease.revoked) {
      throw new LomiError(
        "LEASE_EXPIRED",
        `Lease ${leaseId} expired: ${REVOKE_MESSAGES[lease.revoked]}. Acquire a fresh lease; its inputSequence starts at 1.`,
        {
          field: "leaseId",
          reason: lease.revoked,
        },
      );
    }
    if (lease.runtime !== runtime) {
      throw new LomiError("LEASE_REQUIRED", `Lease ${leaseId} is for another runtime; acquire the lease of this one.`, { field: "leaseId" });
    }
    return lease;
  }

  private active(match: (l: Lease) => boolean): Lease[] {
    return [...this.leases.values()].filter((l) => l.revoked === null && match(l));
  }
}
