/**
 * What `wayfinder dlq replay` already re-published, per tenant and DLQ topic (DESIGN §13): a hash under
 * the tenant (`wf:{tenant}:dlq-replayed:<ns>:<dlq topic>`) from `partition/offset` of the dead letter to
 * when it was replayed, expiring with the DLQ's retention. A second replay skips what is marked, so it
 * sends nothing twice. The mark is written after the publish: a crash between the two re-sends that one
 * record on the next replay, with the same key and eventId, which the consumers drop as a duplicate.
 */
import type { Redis } from 'ioredis';
import { tenantKey } from './keys';

export interface RedisReplayMarksOptions {
  /** Separates deployments sharing one Redis (the topic prefix). */
  namespace?: string;
  /** How long a mark is kept (ms): at least the DLQ's retention. */
  ttlMs: number;
}

export class RedisReplayMarks {
  private readonly namespace: string;

  constructor(
    private readonly redis: Redis,
    private readonly options: RedisReplayMarksOptions,
  ) {
    this.namespace = options.namespace ?? '';
  }

  private key(tenantId: string, dlqTopic: string): string {
    return tenantKey(tenantId, 'dlq-replayed', this.namespace, dlqTopic);
  }

  /** The dead letters (`partition/offset`) of this tenant's DLQ topic already replayed, with when. */
  async replayed(tenantId: string, dlqTopic: string): Promise<Map<string, string>> {
    return new Map(Object.entries(await this.redis.hgetall(this.key(tenantId, dlqTopic))));
  }

  async mark(tenantId: string, dlqTopic: string, partition: number, offset: string, at: Date = new Date()): Promise<void> {
    const key = this.key(tenantId, dlqTopic);
    await this.redis.multi().hset(key, `${partition}/${offset}`, at.toISOString()).pexpire(key, this.options.ttlMs).exec();
  }
}
