import Redis from 'ioredis';
import { mapStoreContract } from '@wayfinder/cognitive-map/testing';
import { RedisMapStore } from './redis-map-store';

const run = `${process.pid}-${Date.now()}`;
const redis = new Redis(process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });

beforeAll(async () => {
  await redis.connect().catch((error: Error) => {
    throw new Error(`Redis is not reachable at 127.0.0.1:6379 (run npm run infra:up): ${error.message}`);
  });
});
afterAll(() => redis.quit());

mapStoreContract('RedisMapStore', () => new RedisMapStore(redis, { ttlMs: 60_000, namespace: `ns:${run}` }), run);
