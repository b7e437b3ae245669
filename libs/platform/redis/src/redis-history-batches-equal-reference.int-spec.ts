/**
 * RedisHistoryStore appends a batch in one script call per tenant (records grouped by agent, at most 256
 * a call): whatever the batches — several tenants, an agent with more records than one call takes, ts out
 * of order, ties, records redelivered in a later batch — it answers every query as the in-memory store
 * (the reference the contract suite also runs on) given the same batches. Real Redis at 127.0.0.1:6379.
 */
import fc from 'fast-check';
import Redis from 'ioredis';
import { InMemoryHistoryStore, type HistoryRecord, type HistoryStore } from '@wayfinder/history';
import { deviationRecord, escalationRecord, stepRecord, T0 } from '@wayfinder/history/testing';
import { deleteMatching } from './keys';
import { RedisHistoryStore } from './redis-history-store';

const url = process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379';
const run = `hist-batch-test-${process.pid}-${Date.now().toString(36)}`;
const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
let cases = 0;

beforeAll(async () => {
  await redis.connect().catch((error: Error) => {
    throw new Error(`Redis is not reachable at ${url} (run npm run infra:up): ${error.message}`);
  });
});

afterAll(async () => {
  await deleteMatching(redis, [`wf:*:hist:${run}-*`, `wf:hist:${run}-*`]);
  await redis.quit();
});

const HOUR = 3_600_000;
const limits = { maxStepsPerAgent: 60, maxRecordsPerAgent: 40, maxRecordsPerTenant: 60, retentionMs: 24 * HOUR };

/**
 * A record of tenant t, agent a, number n. A step and a deviation of the same agent and number are at the
 * same ms (a tie: the later of the batch names the task), with different tasks; otherwise scores differ,
 * since Redis orders equal scores by member where the in-memory store orders by record (at a bound, the
 * two may keep different records of the same ms — as the per-record script did).
 */
const record = fc.record({ t: fc.integer({ min: 0, max: 2 }), a: fc.integer({ min: 0, max: 3 }), kind: fc.constantFrom('step', 'step', 'deviation', 'escalation'), n: fc.integer({ min: 0, max: 400 }) });
type Spec = { t: number; a: number; kind: string; n: number };

function toRecord(r: Spec): HistoryRecord {
  const kind = ['step', 'deviation', 'escalation'].indexOf(r.kind);
  const subject = { tenantId: `t${r.t}:x`, agentId: `a{${r.a}}`, taskId: `task-${(r.n + kind) % 3}` };
  const ms = T0 + r.n * 4_000 + r.a * 1_000 + (r.kind === 'escalation' ? 500 : 0);
  if (r.kind === 'step') return stepRecord(subject, r.n, ms);
  if (r.kind === 'deviation') return deviationRecord(subject, r.n, ms);
  return escalationRecord(subject, r.n, ms);
}

async function answers(store: HistoryStore): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (let t = 0; t < 3; t++) {
    const tenantId = `t${t}:x`;
    out[`${tenantId} agents`] = await store.agents(tenantId);
    out[`${tenantId} records`] = (await store.tenantHistory(tenantId)).map((r) => r.id);
    for (let a = 0; a < 4; a++) {
      out[`${tenantId} a${a}`] = (await store.agentHistory(tenantId, `a{${a}}`)).map((r) => r.id);
      out[`${tenantId} a${a} entry`] = await store.agent(tenantId, `a{${a}}`);
    }
  }
  return out;
}

describe('RedisHistoryStore batches', () => {
  it('answer as the in-memory store for any sequence of batches', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(record, { maxLength: 1_200, size: 'max' }), { minLength: 1, maxLength: 3 }), fc.boolean(), async (batches, redeliver) => {
        const now = () => T0 + HOUR;
        const reference = new InMemoryHistoryStore({ ...limits, now });
        const store = new RedisHistoryStore(redis, { ...limits, namespace: `${run}-${cases++}`, now });
        const all = redeliver ? [...batches, batches[0]] : batches;
        for (const batch of all) {
          const records = batch.map(toRecord);
          expect(await store.append(records)).toBe(await reference.append(records));
        }
        expect(await answers(store)).toEqual(await answers(reference));
      }),
      { numRuns: 12, endOnFailure: true },
    );
  }, 60_000);

  it('writes an agent with more records than one script call takes', async () => {
    const store = new RedisHistoryStore(redis, { ...limits, maxStepsPerAgent: 1_000, namespace: `${run}-${cases++}`, now: () => T0 + HOUR });
    const a = { tenantId: 'acme', agentId: 'busy' };
    const records = Array.from({ length: 700 }, (_, i) => stepRecord(a, i + 1, T0 + i));
    expect(await store.append([...records, deviationRecord({ tenantId: 'acme', agentId: 'other' }, 1, T0)])).toBe(701);
    expect(await store.append(records)).toBe(0);
    expect(await store.agentHistory('acme', 'busy')).toHaveLength(700);
    expect(await store.agent('acme', 'busy')).toMatchObject({ lastSeq: 700, firstSeen: new Date(T0).toISOString(), lastSeen: new Date(T0 + 699).toISOString() });
  });
});
