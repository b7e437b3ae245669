/**
 * Self-healing end to end on the real Kafka broker and Redis, every service distributed as `wayfinder
 * start --mode distributed` runs them: an agent that keeps retrying a tool that fails the same way gets
 * a hint; when it keeps looping past the tolerance window it gets a rollback whose checkpoint is the last
 * verified milestone the memory service stored in Redis; when it then completes the next milestone the
 * correction engine records the self-heal.
 */
import Redis from 'ioredis';
import type { Correction, StepEvent, TaskSpec, TenantPolicy } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import type { Checkpoint } from '@wayfinder/memory';
import { RedisWorkingMemory, tenantKey } from '@wayfinder/redis';
import { deleteTestTopics, requireKafka, uniqueTestName } from '@wayfinder/testing';
import { startServices, type RunningServices } from './runtime';

const name = uniqueTestName('selfheal');
// Working memory has no per-run namespace in the runtime: a tenant of its own keeps reruns apart.
const tenantId = `acme-${name}`;
const agentId = 'analyst-1';
const taskId = 'sales-report';
const runId = 'r1';
const redisUrl = process.env['WAYFINDER_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * Only error_repeat speaks, at every retry (warning threshold 1, critical far away), so the ladder sees
 * one pattern reported at each action: the tolerance window alone decides when it climbs. The detectors
 * that judge text (drift, near-duplicates, repetition, monologue, stagnation) are off so nothing else
 * can add a deviation or a rung. The correction settings are the defaults, written out because the
 * seqs below are computed from them.
 */
const policy: TenantPolicy = {
  schema: 'wayfinder.policy.v1',
  eventId: `policy-${name}`,
  tenantId,
  ts: new Date().toISOString(),
  policy: {
    profile: 'balanced',
    loop: { errorRepeatWarning: 1, errorRepeatCritical: 50 },
    nearDuplicate: { enabled: false },
    drift: { enabled: false },
    repetition: { enabled: false },
    monologue: { enabled: false },
    stagnation: { enabled: false },
    correction: { toleranceSteps: 3, cooldownSteps: 2, selfHealWindow: 5, maxRollbacksPerMilestone: 2, maxCorrectionsPerMilestone: 4 },
  },
};

const marker = { type: 'marker' as const };
const task: TaskSpec = {
  schema: 'wayfinder.task.v1',
  eventId: `task-${name}`,
  tenantId,
  ts: new Date().toISOString(),
  taskId,
  goal: 'Produce the quarterly sales report',
  milestones: [
    { id: 'locate', description: 'locate the quarterly sales export', dependsOn: [], validator: marker },
    { id: 'totals', description: 'compute revenue totals per region', dependsOn: ['locate'], validator: marker },
    { id: 'write', description: 'write the report for the board', dependsOn: ['totals'], validator: marker },
  ],
};

const base = (seq: number) => ({
  schema: 'wayfinder.step.v1' as const,
  eventId: `${name}-${seq}`,
  tenantId,
  agentId,
  taskId,
  runId,
  ts: new Date().toISOString(),
  seq,
});
const action = (seq: number, tool: string, args: Record<string, string>): StepEvent => ({ ...base(seq), kind: 'action', action: { tool, args, callId: `c${seq}` } });
const failed = (seq: number, callSeq: number): StepEvent => ({
  ...base(seq),
  kind: 'observation',
  observation: { tool: 'read_file', callId: `c${callSeq}`, ok: false, error: "EACCES: permission denied, open '/exports/q3-locked.csv'" },
});
const succeeded = (seq: number, tool: string, callSeq: number, content: string): StepEvent => ({
  ...base(seq),
  kind: 'observation',
  observation: { tool, callId: `c${callSeq}`, ok: true, content },
});
const done = (seq: number, id: string, evidence: string): StepEvent => ({ ...base(seq), kind: 'milestone', milestone: { id, status: 'done', evidence } });
const retry = (seq: number) => action(seq, 'read_file', { path: '/exports/q3-locked.csv' });

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}


describe('self-healing on Kafka and Redis', () => {
  const prefix = `${name}.`;
  let brokers: string[];
  let running: RunningServices;
  let observer: KafkaBus;
  let redis: Redis;
  let working: RedisWorkingMemory;
  const corrections: Correction[] = [];
  const scope = { tenantId, taskId, agentId };

  const correctionAt = (atSeq: number) =>
    until(`the correction at seq ${atSeq} (got ${JSON.stringify(corrections.map((c) => [c.atSeq, c.action]))})`, () => corrections.find((c) => c.atSeq === atSeq));

  const checkpointsOverHttp = async (): Promise<Checkpoint[] | undefined> => {
    if (!running.memory) throw new Error('the memory service is not running');
    const res = await fetch(`${running.memory.url}/v1/tenants/${tenantId}/agents/${agentId}/tasks/${taskId}/checkpoints`, { headers: { authorization: `Bearer key-${name}` } });
    return res.status === 200 ? ((await res.json()) as { checkpoints: Checkpoint[] }).checkpoints : undefined;
  };

  beforeAll(async () => {
    brokers = await requireKafka();
    redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect().catch((error: Error) => {
      throw new Error(`Redis is not reachable at ${redisUrl} (run npm run infra:up): ${error.message}`);
    });
    // The memory service keeps working memory under the deployment's prefix (WAYFINDER_TOPIC_PREFIX).
    working = new RedisWorkingMemory(redis, { namespace: `wm.${prefix}` });
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
    observer = new KafkaBus({ brokers, topicPrefix: prefix, clientId: `${name}-observer` });
    observer.subscribe('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch.map((d) => d.payload)), { groupId: `${name}.observer` });
    await observer.start();
    const config = loadConfig({
      WAYFINDER_MODE: 'distributed',
      WAYFINDER_KAFKA_BROKERS: brokers.join(','),
      WAYFINDER_REDIS_URL: redisUrl,
      WAYFINDER_TOPIC_PREFIX: prefix,
      WAYFINDER_GROUP_PREFIX: name,
      WAYFINDER_MEMORY_API_KEYS: JSON.stringify({ [`key-${name}`]: tenantId }),
    });
    expect(config.services).toContain('memory-service');
    running = await startServices(config, { logger: false });
  });

  afterAll(async () => {
    await running?.stop();
    await observer?.stop();
    if (redis) {
      const keys = await redis.keys(`${tenantKey(tenantId)}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
    if (brokers) await deleteTestTopics(brokers, prefix);
  });

  it('hints, rolls back to the last verified milestone in Redis, and records the self-heal', async () => {
    const engine = running.correctionEngine();

    await running.bus.publish('wayfinder.policies.v1', [policy]);
    await until('the tenant policy to be applied', () => (running.policyBook.policyOf(tenantId, taskId, agentId).loop.errorRepeatWarning === 1 ? true : undefined));
    await running.bus.publish('wayfinder.tasks.v1', [task]);
    await until('the cognitive map', async () => (await running.mapStore.get(tenantId, taskId)) ?? undefined);

    // The agent verifies its first milestone: the memory service pushes that checkpoint to Redis.
    await running.bus.publish('wayfinder.steps.v1', [
      action(0, 'list_files', { dir: '/exports' }),
      succeeded(1, 'list_files', 0, 'q3-locked.csv'),
      done(2, 'locate', 'the export is /exports/q3-locked.csv'),
    ]);
    const verified = await until('the first checkpoint', async () => (await checkpointsOverHttp())?.at(-1));
    expect(verified).toMatchObject({ id: `cp:${taskId}:locate:2`, milestoneId: 'locate', seq: 2 });

    // Then it retries a read that fails the same way: the second failure in a row brings a hint.
    await running.bus.publish('wayfinder.steps.v1', [retry(3), failed(4, 3), retry(5)]);
    const hint = await correctionAt(5);
    expect(hint).toMatchObject({ tenantId, agentId, taskId, action: 'hint', severity: 'mild' });
    expect(hint.action === 'hint' && hint.hint.text).toMatch(/read_file/);

    // Inside the tolerance window (seq 7) the ladder holds; at its end (seq 8, the third failure of the very
    // same call: PROJECT-RULES P10) it climbs to a rollback.
    await running.bus.publish('wayfinder.steps.v1', [failed(6, 5), retry(7), failed(8, 7), retry(9)]);
    const rollback = await correctionAt(8);
    if (rollback.action !== 'rollback') throw new Error(`expected a rollback at seq 8, got ${rollback.action}`);
    expect(rollback.severity).toBe('moderate');
    expect(corrections.filter((c) => c.agentId === agentId).map((c) => [c.atSeq, c.action])).toEqual([
      [5, 'hint'],
      [8, 'rollback'],
    ]);

    // The rollback names the last verified milestone as stored in Redis, read straight from Redis too.
    const stored = (await working.listCheckpoints(scope)).at(-1);
    if (!stored) throw new Error('no checkpoint in Redis');
    expect(stored).toMatchObject({ id: verified.id, milestoneId: 'locate', seq: 2 });
    expect(rollback.rollback).toEqual({ checkpointId: stored.id, milestoneId: stored.milestoneId, discardAfterSeq: stored.seq });
    expect(engine.stats()).toMatchObject({ selfHeals: 0 });

    // The agent recovers: it reads another way and completes the next milestone within K = 5 steps.
    await running.bus.publish('wayfinder.steps.v1', [
      failed(10, 9),
      action(11, 'query_warehouse', { sql: 'select region, sum(revenue) from sales group by region' }),
      succeeded(12, 'query_warehouse', 11, 'north 120, south 95'),
      done(13, 'totals', 'north 120, south 95'),
    ]);
    await until('the self-heal to be recorded', () => (engine.stats().selfHeals >= 1 ? true : undefined));
    // The rollback healed; the hint before it did not (a higher rung followed it).
    expect(engine.stats()).toMatchObject({ corrections: 2, selfHeals: 1, selfHealFailures: 1, escalations: 0 });
    const stack = await until('the second checkpoint', async () => {
      const list = await working.listCheckpoints(scope);
      return list.length >= 2 ? list : undefined;
    });
    expect(stack.map((c) => c.id)).toEqual([`cp:${taskId}:locate:2`, `cp:${taskId}:totals:13`]);
    expect(corrections.filter((c) => c.agentId === agentId)).toHaveLength(2);
  });
});
