/**
 * The escalations waiting in the notifier's delivery lanes, kept where a restart does not lose them
 * (issue #29). The notifier's batch is done once its escalations are queued (one tenant's hanging
 * receiver must not hold the others), so the broker will not redeliver a waiting one: this record is what
 * brings it back. Each record is owned by the notifier instance that queued it, under a lease it renews
 * while it runs; a record whose lease ran out (its instance stopped or died) is claimed by another
 * instance, or by the same one after its restart, and queued again. In memory for embedded mode (one
 * process: what it loses on a stop it cannot bring back anyway); RedisPendingDeliveries (@wayfinder/redis)
 * in distributed mode.
 *
 * A delivery may be posted twice when an instance stalls past its lease while posting: the receiver gets
 * the escalation id as its idempotency key, and the delivery log skips one already accepted.
 */
import type { Escalation } from '@wayfinder/contracts';

/** Where the escalation was read, for its dead-letter headers if it is given up after a restart. */
export interface PendingSource {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key?: string;
}

export interface PendingDelivery {
  readonly escalation: Escalation;
  readonly source?: PendingSource;
}

export interface PendingDeliveries {
  /** How often the owner renews its leases and looks for orphans (absent: never, nothing to hand over). */
  readonly renewEveryMs?: number;
  /** Records a waiting delivery, owned by this instance. */
  add(delivery: PendingDelivery): Promise<void>;
  /** Forgets a delivery that was accepted or given up. */
  remove(tenantId: string, escalationId: string): Promise<void>;
  /** Renews the lease of every delivery this instance owns (called well within the lease). */
  renew(): Promise<void>;
  /** The deliveries whose owner's lease ran out, now owned by this instance (to queue again). */
  claimOrphans(): Promise<PendingDelivery[]>;
}

/** Embedded mode: the one process owns every delivery; nothing is left to claim after a restart. */
export class InMemoryPendingDeliveries implements PendingDeliveries {
  private readonly waiting = new Map<string, PendingDelivery>();

  async add(delivery: PendingDelivery): Promise<void> {
    this.waiting.set(`${delivery.escalation.tenantId}\u0000${delivery.escalation.eventId}`, delivery);
  }

  async remove(tenantId: string, escalationId: string): Promise<void> {
    this.waiting.delete(`${tenantId}\u0000${escalationId}`);
  }

  async renew(): Promise<void> {
    // One process: no other owner to hand the deliveries to.
  }

  async claimOrphans(): Promise<PendingDelivery[]> {
    return [];
  }

  /** Deliveries waiting (tests). */
  get size(): number {
    return this.waiting.size;
  }
}
