/**
 * RedisHistoryStore passes the HistoryStore contract on the real Redis at 127.0.0.1:6379 (started by
 * deploy/local), each case in a namespace of its own; the clock is the harness's.
 */
import Redis from 'ioredis';
import { historyStoreContract, stepRecord, T0 } from '@wayfinder/history/testing';
import { deleteMatching } from './keys';
import { RedisHistoryStore } from './redis-history-store';

const url = process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379';
const run = `hist-test-${process.pid}-${Date.now().toString(36)}`;
const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
let cases = 0;

beforeAll(async () => {
  await redis.connect().catch((error: Error) => {
    throw new Error(`Redis is not reachable at ${url} (run npm run infra:up): ${error.message}`);
  });
});

afterAll(async () => {
  // Only this run's keys (its namespaces), never anything else on the shared Redis.
  await deleteMatching(redis, [`wf:*:hist:${run}-*`, `wf:hist:${run}-*`]);
  await redis.quit();
});

describe('RedisHistoryStore on a real Redis', () => {
  historyStoreContract((limits, startMs) => {
    let now = startMs;
    const store = new RedisHistoryStore(redis, { ...limits, namespace: `${run}-${cases++}`, now: () => now });
    return { store, advance: (ms) => (now += ms) };
  });
});

describe('RedisHistoryStore and malformed text', () => {
  it('keeps a record whose strings hold a lone surrogate, with U+FFFD in its place, and the entry its task', async () => {
    const store = new RedisHistoryStore(redis, { namespace: `${run}-${cases++}`, now: () => T0 + 60_000 });
    const subject = { tenantId: 'acme', agentId: 'agent-1', taskId: 'task-\ud800x' };
    const records = [stepRecord(subject, 0, T0, { tool: 'read\udfff' }), stepRecord({ ...subject, taskId: 'task-2' }, 1, T0 - 1_000)];
    expect(await store.append(records)).toBe(2);
    expect(await store.append(records)).toBe(0);
    const history = await store.agentHistory('acme', 'agent-1');
    expect(history.map((r) => r.kind === 'step' && [r.seq, r.taskId, r.tool])).toEqual([
      [1, 'task-2', 'search'],
      [0, 'task-\ufffdx', 'read\ufffd'],
    ]);
    expect(await store.agent('acme', 'agent-1')).toMatchObject({ taskId: 'task-\ufffdx', firstSeen: records[1].ts, lastSeen: records[0].ts, lastSeq: 1 });
  });
});
