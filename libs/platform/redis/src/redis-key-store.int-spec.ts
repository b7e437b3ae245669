// RedisKeyStore passes the KeyStore contract on the real Redis (a fresh namespace per store).
import Redis from 'ioredis';
import { keyStoreContract } from '@wayfinder/tenancy/testing';
import { RedisKeyStore } from './redis-key-store';

const url = process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
let n = 0;

beforeAll(async () => {
  await redis.connect().catch((error: Error) => {
    throw new Error(`Redis is not reachable at ${url} (run npm run infra:up): ${error.message}`);
  });
});
afterAll(async () => {
  await redis.quit();
});

describe('RedisKeyStore on a real Redis', () => {
  keyStoreContract(() => new RedisKeyStore(redis, { namespace: `keys-test-${process.pid}-${Date.now().toString(36)}-${n++}` }));
});
