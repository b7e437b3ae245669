import Redis from 'ioredis';
import type { CognitiveMap } from '@wayfinder/contracts';
import { RedisMapStore } from './redis-map-store';

const run = `${process.pid}-${Date.now()}`;

function map(tenantId: string, taskId: string, version: number): CognitiveMap {
  return {
    schema: 'wayfinder.map.v1', eventId: `m-${version}`, tenantId, ts: '2026-01-01T00:00:00.000Z', taskId, version, goal: 'g', targetState: 'done',
    milestones: [{ id: 'm1', description: 'do it', dependsOn: [], validator: { type: 'marker' } }], anchors: [], constraints: [],
  };
}

describe('RedisMapStore on a real Redis', () => {
  const redis = new Redis(process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  const store = new RedisMapStore(redis, { ttlMs: 60_000 });

  beforeAll(async () => {
    await redis.connect().catch((error: Error) => {
      throw new Error(`Redis is not reachable at 127.0.0.1:6379 (run npm run infra:up): ${error.message}`);
    });
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('stores a map and never regresses it to an older version', async () => {
    const tenant = `t-${run}`;
    expect(await store.put(map(tenant, 'task', 2))).toBe(true);
    expect(await store.put(map(tenant, 'task', 1))).toBe(false);
    expect((await store.get(tenant, 'task'))?.version).toBe(2);
    expect(await store.put(map(tenant, 'task', 3))).toBe(true);
    expect((await store.get(tenant, 'task'))?.version).toBe(3);
  });

  it('keeps tenants apart even when their task ids collide or contain separators', async () => {
    await store.put(map(`a-${run}`, 'x:y', 1));
    expect(await store.get(`b-${run}`, 'x:y')).toBeUndefined();
    expect(await store.get(`a-${run}:x`, 'y')).toBeUndefined();
    expect((await store.get(`a-${run}`, 'x:y'))?.tenantId).toBe(`a-${run}`);
  });
});
