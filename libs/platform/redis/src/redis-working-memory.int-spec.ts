/**
 * RedisWorkingMemory passes the WorkingMemory contract on the real Redis at 127.0.0.1:6379 (started by
 * deploy/local). Keys live under a namespace unique to this run; TTL checks wait in real time.
 */
import Redis from 'ioredis';
import { workingMemoryContract } from '@wayfinder/memory/testing';
import { tenantKey } from './keys';
import { RedisWorkingMemory } from './redis-working-memory';

const url = process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379';
const namespace = `wm-test-${process.pid}-${Date.now().toString(36)}`;
const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });

beforeAll(async () => {
  await redis.connect().catch((error: Error) => {
    throw new Error(`Redis is not reachable at ${url} (run npm run infra:up): ${error.message}`);
  });
  await redis.ping();
});

afterAll(async () => {
  await redis.quit();
});

describe('RedisWorkingMemory on a real Redis', () => {
  workingMemoryContract(({ ttlMs }) => ({
    memory: new RedisWorkingMemory(redis, { ttlMs, namespace }),
    advanceTime: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }));

  it('keeps every key under its tenant and sets a TTL on each', async () => {
    const memory = new RedisWorkingMemory(redis, { ttlMs: 60_000, namespace });
    const scope = { tenantId: `t:{odd}-${Date.now()}`, taskId: 'task:1', agentId: 'a1' };
    await memory.setCharter(scope, { goal: 'g', constraints: [] });
    await memory.putState(scope, { seq: 1, text: 'STATE' });
    await memory.pushCheckpoint(scope, { id: 'c1', milestoneId: 'm1', seq: 1 });
    const prefix = tenantKey(scope.tenantId, namespace);
    const keys = (await redis.keys(`${prefix.replace(/[*?[\]]/g, '\\$&')}:*`)).sort();
    expect(keys).toEqual([
      tenantKey(scope.tenantId, namespace, 'charter', 'task:1'),
      tenantKey(scope.tenantId, namespace, 'checkpoints', 'task:1', 'a1'),
      tenantKey(scope.tenantId, namespace, 'state', 'task:1', 'a1'),
    ].sort());
    for (const key of keys) {
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
    await redis.del(...keys);
  });
});
