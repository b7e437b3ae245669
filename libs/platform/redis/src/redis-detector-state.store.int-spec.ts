import Redis from 'ioredis';
import { RedisDetectorStateStore } from './redis-detector-state.store';

const run = `${process.pid}-${Date.now()}`;

describe('RedisDetectorStateStore on a real Redis', () => {
  const redis = new Redis(process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  const store = new RedisDetectorStateStore(redis, { ttlMs: 60_000 });

  beforeAll(async () => {
    await redis.connect().catch((error: Error) => {
      throw new Error(`Redis is not reachable at 127.0.0.1:6379 (run npm run infra:up): ${error.message}`);
    });
  });
  afterAll(() => redis.quit());

  it('round-trips binary states and bumps the version on every write', async () => {
    const a = { tenantId: `t-${run}`, agentId: 'a1' };
    const b = { tenantId: `t-${run}`, agentId: 'a2' };
    expect(await store.versions([a, b])).toEqual([0, 0]);
    const bytes = new Uint8Array([0, 255, 1, 128, 7]);
    expect(await store.save([{ ...a, state: bytes }])).toEqual([1]);
    expect(await store.save([{ ...a, state: bytes.subarray(1, 3) }, { ...b, state: bytes }])).toEqual([2, 1]);
    const [loadedA, loadedB] = await store.load([a, b]);
    expect(loadedA).toEqual({ version: 2, state: new Uint8Array([255, 1]) });
    expect(loadedB).toEqual({ version: 1, state: bytes });
  });

  it('keeps agents of different tenants apart', async () => {
    await store.save([{ tenantId: `x-${run}`, agentId: 'same', state: new Uint8Array([1]) }]);
    expect(await store.load([{ tenantId: `y-${run}`, agentId: 'same' }])).toEqual([undefined]);
  });
});
