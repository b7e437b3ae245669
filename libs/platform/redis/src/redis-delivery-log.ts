/** DeliveryLog of the escalation notifier on Redis: one key per accepted escalation, kept 30 days. */
import type { Redis } from 'ioredis';
import { tenantKey } from './keys';

export class RedisDeliveryLog {
  constructor(
    private readonly redis: Redis,
    private readonly options: { namespace?: string; ttlMs?: number } = {},
  ) {}

  private key(tenantId: string, escalationId: string): string {
    return tenantKey(tenantId, 'delivered', this.options.namespace ?? '', escalationId);
  }

  async delivered(tenantId: string, escalationId: string): Promise<boolean> {
    return (await this.redis.exists(this.key(tenantId, escalationId))) === 1;
  }

  async markDelivered(tenantId: string, escalationId: string): Promise<void> {
    await this.redis.set(this.key(tenantId, escalationId), '1', 'PX', this.options.ttlMs ?? 30 * 24 * 60 * 60 * 1000);
  }
}
