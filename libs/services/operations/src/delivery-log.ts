/**
 * Which escalations a tenant's webhook already accepted, so that a redelivered escalation (a restart
 * before the commit, a batch retried after another message failed) is not posted again. In memory for
 * embedded mode; RedisDeliveryLog (@wayfinder/redis) in distributed mode.
 */
export interface DeliveryLog {
  delivered(tenantId: string, escalationId: string): Promise<boolean>;
  markDelivered(tenantId: string, escalationId: string): Promise<void>;
}

export class InMemoryDeliveryLog implements DeliveryLog {
  private readonly done = new Map<string, number>();
  constructor(private readonly max = 100_000) {}

  async delivered(tenantId: string, escalationId: string): Promise<boolean> {
    return this.done.has(`${tenantId}\u0000${escalationId}`);
  }

  async markDelivered(tenantId: string, escalationId: string): Promise<void> {
    this.done.set(`${tenantId}\u0000${escalationId}`, Date.now());
    if (this.done.size > this.max) this.done.delete(this.done.keys().next().value as string);
  }
}
