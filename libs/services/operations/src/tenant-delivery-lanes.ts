/**
 * Per-tenant delivery lanes of the escalation notifier (issue #29, DESIGN §13): each tenant's webhook
 * deliveries wait in a lane of their own, sent one at a time and in order, retried with exponential
 * backoff, then given up (the notifier dead-letters them with the reason). Lanes run side by side, so a
 * tenant whose receiver hangs or fails delays only its own deliveries — before, one batch retried as a
 * whole held every tenant's escalations behind it (90 s measured). Lanes are bounded: past `maxWaiting`
 * in the tenant's lane, or `maxWaitingTotal` in all, a delivery is refused at once (`full`), so no
 * tenant can fill the process's memory.
 *
 * A lane lives in memory: what survives a stop is the notifier's pending deliveries (pending-deliveries.ts),
 * from which a running or restarted notifier queues a stopped one's deliveries again.
 */

export interface LaneSettings {
  /** Deliveries a tenant may have waiting (the one being sent included). */
  readonly maxWaiting: number;
  /** Deliveries all tenants may have waiting together. */
  readonly maxWaitingTotal: number;
  /** Tries per delivery before it is given up. */
  readonly maxAttempts: number;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
}

export const DEFAULT_LANE_SETTINGS: LaneSettings = { maxWaiting: 1_000, maxWaitingTotal: 20_000, maxAttempts: 6, initialBackoffMs: 1_000, maxBackoffMs: 30_000 };

export interface Delivery {
  /** Unique within the tenant (the escalation's eventId): a delivery already waiting is not queued twice. */
  readonly id: string;
  /** One try; rejects when the receiver did not accept it. */
  send(): Promise<void>;
  /** Called once when every try failed (the reason is the last failure). */
  giveUp(reason: string, attempts: number): Promise<void>;
}

export type Submitted = 'queued' | 'duplicate' | 'full';

interface Lane {
  readonly waiting: Delivery[];
  readonly ids: Set<string>;
  running: Promise<void> | undefined;
}

export class TenantDeliveryLanes {
  private readonly lanes = new Map<string, Lane>();
  private total = 0;
  private stopped = false;
  private readonly sleepers = new Set<() => void>();

  constructor(
    private readonly settings: LaneSettings = DEFAULT_LANE_SETTINGS,
    private readonly onError: (tenantId: string, error: unknown) => void = () => undefined,
  ) {}

  submit(tenantId: string, delivery: Delivery): Submitted {
    let lane = this.lanes.get(tenantId);
    if (lane?.ids.has(delivery.id)) return 'duplicate';
    if ((lane && lane.waiting.length >= this.settings.maxWaiting) || this.total >= this.settings.maxWaitingTotal) return 'full';
    if (!lane) {
      lane = { waiting: [], ids: new Set(), running: undefined };
      this.lanes.set(tenantId, lane);
    }
    lane.waiting.push(delivery);
    lane.ids.add(delivery.id);
    this.total++;
    if (!lane.running) lane.running = this.drain(tenantId, lane);
    return 'queued';
  }

  /** Why a delivery of the tenant was refused as `full`. */
  fullReason(tenantId: string): string {
    const own = this.waiting(tenantId);
    if (own >= this.settings.maxWaiting) return `the webhook of tenant ${tenantId} has ${own} deliveries waiting`;
    return `the notifier has ${this.total} deliveries waiting for all tenants (tenant ${tenantId}: ${own})`;
  }

  /** Deliveries waiting in the tenant's lane. */
  waiting(tenantId: string): number {
    return this.lanes.get(tenantId)?.waiting.length ?? 0;
  }

  /** Resolves when every lane is empty (tests; a graceful stop). */
  async idle(): Promise<void> {
    for (;;) {
      const running = [...this.lanes.values()].map((lane) => lane.running).filter((p): p is Promise<void> => p !== undefined);
      if (running.length === 0) return;
      await Promise.all(running);
    }
  }

  /** Stops retrying: backoff waits end and no further try starts. */
  stop(): void {
    this.stopped = true;
    for (const wake of this.sleepers) wake();
  }

  private async drain(tenantId: string, lane: Lane): Promise<void> {
    try {
      while (lane.waiting.length > 0 && !this.stopped) {
        const delivery = lane.waiting[0];
        try {
          await this.deliver(delivery);
        } catch (error) {
          this.onError(tenantId, error);
        }
        lane.waiting.shift();
        lane.ids.delete(delivery.id);
        this.total--;
      }
    } finally {
      lane.running = undefined;
      if (lane.waiting.length === 0) this.lanes.delete(tenantId);
    }
  }

  private async deliver(delivery: Delivery): Promise<void> {
    let backoff = this.settings.initialBackoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await delivery.send();
        return;
      } catch (error) {
        if (attempt >= this.settings.maxAttempts) {
          await delivery.giveUp(error instanceof Error ? error.message : String(error), attempt);
          return;
        }
      }
      await this.sleep(backoff);
      if (this.stopped) return;
      backoff = Math.min(backoff * 2, this.settings.maxBackoffMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref();
      this.sleepers.add(wake);
    });
  }
}
