/**
 * The tenant of an operator's key for the CLI commands that read Kafka directly (`dlq`, `tail`): resolved
 * the way the gateway does (WAYFINDER_API_KEYS, then the Redis key store), so the key decides the tenant
 * whichever door is used. The Redis connection is the caller's to keep (dlq marks replays in it) and is
 * closed by `close()`.
 */
import Redis from 'ioredis';
import type { WayfinderConfig } from '@wayfinder/config';
import { authenticatorFor, keyStoreFor } from '@wayfinder/service-gateway';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { UsageError } from '../command';

export interface KeyTenant {
  tenant: ResolvedTenant;
  redis: Redis;
  close(): Promise<void>;
}

/** The `--key` value or WAYFINDER_KEY; a usage error naming both when neither is set. */
export function keyOption(value: string | undefined): string {
  const key = value ?? process.env['WAYFINDER_KEY'];
  if (key === undefined || key === '') throw new UsageError('--key (or WAYFINDER_KEY) is required: the key decides the tenant');
  return key;
}

/**
 * Connects to Redis and resolves the key; throws with a one-line reason when Redis is down or the key
 * unknown. A CLI command does not wait for Redis to come back: no reconnection, no offline queue, and the
 * connection's error events are kept for that one line instead of being printed by ioredis, one stack
 * trace per retry.
 */
export async function resolveKeyTenant(config: WayfinderConfig, key: string): Promise<KeyTenant> {
  let lastError: Error | undefined;
  const redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 5_000, retryStrategy: () => null });
  redis.on('error', (error: Error) => {
    lastError = error;
  });
  await redis.connect().catch((error: Error) => {
    redis.disconnect();
    const reason = lastError?.message ?? error.message;
    throw new Error(`Redis at ${config.redisUrl} does not answer: ${reason}`);
  });
  const close = () => redis.quit().then(() => undefined, () => redis.disconnect());
  try {
    const tenant = await authenticatorFor(config, keyStoreFor(config, redis)).resolve(key);
    if (!tenant) throw new Error('the key is unknown or revoked');
    return { tenant, redis, close };
  } catch (error) {
    await close();
    throw error;
  }
}
