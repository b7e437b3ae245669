import Redis from 'ioredis';
import type { StepEvent } from '@wayfinder/contracts';
import { RedisHeldSteps } from './redis-held-steps';

const run = `${process.pid}-${Date.now()}`;

function step(tenantId: string, taskId: string, agentId: string, seq: number): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId: `${tenantId}/${taskId}/${agentId}/${seq}`, tenantId, agentId, taskId, seq, ts: '2026-01-01T00:00:00Z', kind: 'compaction', compaction: { reason: 'x' } };
}

describe('RedisHeldSteps on a real Redis', () => {
  const redis = new Redis(process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  const held = new RedisHeldSteps(redis, { namespace: `held-${run}`, maxPerTask: 3 });

  beforeAll(async () => {
    await redis.connect().catch((error: Error) => {
      throw new Error(`Redis is not reachable at 127.0.0.1:6379 (run npm run infra:up): ${error.message}`);
    });
  });
  afterAll(() => redis.quit());

  it('hands the held steps of a task to one taker, in order, once', async () => {
    expect(await held.hold([step('t', 'job', 'a', 1), step('t', 'job', 'b', 1), step('t', 'job', 'a', 2)], 1_000)).toEqual([]);
    const [first, second] = await Promise.all([held.take('t', 'job'), held.take('t', 'job')]);
    const taken = [...first, ...second];
    expect(taken.map((s) => s.eventId)).toEqual(['t/job/a/1', 't/job/b/1', 't/job/a/2']);
    expect(Math.min(first.length, second.length)).toBe(0);
  });

  it('hands back the oldest beyond the bound', async () => {
    const out = await held.hold([1, 2, 3, 4, 5].map((s) => step('t', 'full', 'a', s)), 1_000);
    expect(out.map((s) => s.seq)).toEqual([1, 2]);
    expect((await held.take('t', 'full')).map((s) => s.seq)).toEqual([3, 4, 5]);
  });

  it('sweeps the tasks held before the cutoff only', async () => {
    await held.hold([step('t', 'old', 'a', 1)], 1_000);
    await held.hold([step('t', 'new', 'a', 1)], 9_000);
    expect((await held.takeExpired(5_000)).map((s) => s.taskId)).toEqual(['old']);
    expect(await held.takeExpired(5_000)).toEqual([]);
    expect((await held.take('t', 'new')).map((s) => s.taskId)).toEqual(['new']);
  });

  it('keeps tenants whose composite ids collide apart', async () => {
    await held.hold([step('a:b', 'c', 'x', 1)], 1_000);
    expect(await held.take('a', 'b:c')).toEqual([]);
    expect(await held.take('a%3ab', 'c')).toEqual([]);
    expect((await held.take('a:b', 'c')).map((s) => s.tenantId)).toEqual(['a:b']);
  });
});
