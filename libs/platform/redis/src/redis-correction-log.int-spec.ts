// RedisCorrectionLog passes the CorrectionLog contract on the real Redis (a fresh namespace per log; the
// TTL check waits in real time, since stream ids carry the Redis server's clock).
import Redis from 'ioredis';
import { correctionLogContract } from '@wayfinder/tenancy/testing';
import { RedisCorrectionLog } from './redis-correction-log';

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

describe('RedisCorrectionLog on a real Redis', () => {
  correctionLogContract((limits) => {
    const namespace = `corr-test-${process.pid}-${Date.now().toString(36)}-${n++}`;
    return { log: new RedisCorrectionLog(redis, { ...limits, namespace }), advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };
  });
});
