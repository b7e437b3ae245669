// RedisStepSeqs passes the StepSeqs contract on the real Redis (a fresh namespace per instance), and a
// second instance on the same Redis (another gateway, or this one restarted) counts on the same runs.
import Redis from 'ioredis';
import { stepSeqsContract } from '@wayfinder/tenancy/testing';
import { deleteMatching } from './keys';
import { RedisStepSeqs } from './redis-step-seqs';

const url = process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
const prefix = `seqs-test-${process.pid}-${Date.now().toString(36)}`;
let n = 0;

beforeAll(async () => {
  await redis.connect().catch((error: Error) => {
    throw new Error(`Redis is not reachable at ${url} (run npm run infra:up): ${error.message}`);
  });
});
afterAll(async () => {
  await deleteMatching(redis, [`wf:*:step-seq*:${prefix}-*`]);
  await redis.quit();
});

describe('RedisStepSeqs on a real Redis', () => {
  stepSeqsContract((seenPerRun) => new RedisStepSeqs(redis, { namespace: `${prefix}-${n++}`, seenPerRun }));

  it('counts on across instances sharing the Redis, and expires an idle run', async () => {
    const namespace = `${prefix}-shared`;
    const first = new RedisStepSeqs(redis, { namespace, ttlMs: 60_000 });
    const run = { tenantId: 't1', agentId: 'claude', runId: 'session-1' };
    expect([await first.next(run, 'PreToolUse:a'), await first.next(run, 'PostToolUse:a')]).toEqual([1, 2]);
    const restarted = new RedisStepSeqs(redis, { namespace, ttlMs: 60_000 });
    expect(await restarted.next(run, 'PostToolUse:a')).toBeUndefined(); // redelivered to another instance
    expect(await restarted.next(run, 'PreToolUse:b')).toBe(3);
    const ttl = await redis.pttl(`wf:{t1}:step-seq:${namespace}:claude:session-1`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);

    const brief = new RedisStepSeqs(redis, { namespace: `${prefix}-brief`, ttlMs: 50 });
    expect(await brief.next(run)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await brief.next(run)).toBe(1);
  });
});
