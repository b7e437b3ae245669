/**
 * The ready-made checks against the real broker and Redis of deploy/local (`npm run infra:up`), and
 * against ports where nothing listens, so that "up" and "down" are both observed for real.
 */
import Redis from 'ioredis';
import { kafkaCheck, redisCheck } from './checks';
import { runChecks } from './health.server';

describe('dependency checks', () => {
  let redis: Redis;
  let deadRedis: Redis;

  beforeAll(async () => {
    redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 0 });
    await redis.connect();
    deadRedis = new Redis('redis://127.0.0.1:6399', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
    await deadRedis.connect().catch(() => undefined);
  });

  afterAll(async () => {
    await redis.quit();
    deadRedis.disconnect();
  });

  it('reports the running broker and Redis up', async () => {
    const report = await runChecks({ kafka: kafkaCheck(['127.0.0.1:9092']), redis: redisCheck(redis) }, 10_000);
    expect(report).toMatchObject({ status: 'ready', checks: { kafka: { status: 'up' }, redis: { status: 'up' } } });
  });

  it('reports a broker and a Redis that do not answer down', async () => {
    const report = await runChecks({ kafka: kafkaCheck(['127.0.0.1:9']), redis: redisCheck(deadRedis) }, 10_000);
    expect(report.status).toBe('not_ready');
    expect(report.checks['kafka'].status).toBe('down');
    expect(report.checks['redis'].status).toBe('down');
  });
});
