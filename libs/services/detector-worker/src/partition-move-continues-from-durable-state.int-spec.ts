/**
 * Restore and drop on partition assignment, on the real broker and Redis (DESIGN §7): two detector
 * workers are members of one consumer group. Worker A starts alone and holds every agent; B joins and
 * partitions move to it: A writes back and drops the agents of the partitions it lost (and keeps the
 * others), B restores them from Redis on their first event. B then leaves (graceful stop): its partitions
 * come back to A, whose agents restore on their next event from what B wrote. Across both moves every
 * agent's loop is caught exactly as one uninterrupted worker catches it (same deviations, same counts,
 * same eventIds), with nothing decided twice.
 */
import Redis from 'ioredis';
import type { Deviation, LocalizedStep, StepEvent } from '@wayfinder/contracts';
import { createKafkaBus, createTopics, type KafkaBusLike } from '@wayfinder/bus';
import { DetectionEngine, resolvePolicy } from '@wayfinder/detection';
import { RedisAgentStateStore } from '@wayfinder/redis';
import { dropStateOfRevokedPartitions } from '@wayfinder/service-core';
import { kafkaClientUnderTest, requireKafka, uniqueTestName, until } from '@wayfinder/testing';
import { DetectorWorker } from './detector-worker';

const AGENTS = 24;
const PARTITIONS = 4;
const GROUP = 'detector-worker';
const TOPIC = 'wayfinder.localized.v1';
const policy = resolvePolicy({ profile: 'openclaw' });
const TENANT = uniqueTestName('move');

/** A dead-poll loop: openclaw warns at the 11th identical call and is critical at the 21st. */
function calls(agent: number, from: number, to: number): LocalizedStep[] {
  const agentId = `agent:${agent}`;
  const out: LocalizedStep[] = [];
  for (let i = from; i < to; i++) {
    for (const kind of ['action', 'observation'] as const) {
      const seq = i * 2 + (kind === 'action' ? 0 : 1);
      const base = { schema: 'wayfinder.step.v1' as const, eventId: `${agentId}-${seq}`, tenantId: TENANT, agentId, taskId: 'job', runId: 'r1', seq, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString() };
      const step: StepEvent = kind === 'action'
        ? { ...base, kind, action: { tool: 'job_status', args: { job: `j-${agent}` }, callId: `c${i}` } }
        : { ...base, kind, observation: { tool: 'job_status', callId: `c${i}`, ok: true, content: { state: 'pending' } } };
      out.push({ schema: 'wayfinder.localized.v1', eventId: step.eventId, tenantId: TENANT, ts: step.ts, step, position: { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' } });
    }
  }
  return out;
}

interface Member {
  name: string;
  bus: KafkaBusLike;
  worker: DetectorWorker;
  held: number[];
  handled: number;
  /** Agent → partition, as batches arrive. */
  partitionOf: Map<string, number>;
  dropped: number;
}

describe(`a partition that moves between detector workers (${kafkaClientUnderTest()})`, () => {
  const prefix = `${uniqueTestName('partition-move')}.`;
  const redis = new Redis(process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  const deviations: Deviation[] = [];
  const members: Member[] = [];
  let brokers: string[];

  const member = (name: string): Member => {
    const store = new RedisAgentStateStore(redis, 'detector', { namespace: prefix, ttlMs: 600_000 });
    const bus = createKafkaBus(kafkaClientUnderTest(), { brokers, topicPrefix: prefix, clientId: name, sessionTimeoutMs: 6_000, heartbeatIntervalMs: 300, log: () => undefined });
    const worker = new DetectorWorker(new DetectionEngine({ policyFor: () => ({ policy }) }), store, async (d) => void deviations.push(...d.flatMap((x) => x.deviations)));
    const m: Member = { name, bus, worker, held: [], handled: 0, partitionOf: new Map(), dropped: 0 };
    bus.subscribe(TOPIC, async (batch) => {
      await worker.handleBatch(batch.map((d) => d.payload), batch[0].partition);
      for (const d of batch) m.partitionOf.set(d.payload.step.agentId, d.partition);
      m.handled += batch.length;
    }, { groupId: GROUP });
    bus.onAssignment((group, assignment) => {
      if (group === GROUP) m.held = [...(assignment[TOPIC] ?? [])];
    });
    dropStateOfRevokedPartitions(bus, GROUP, TOPIC, worker.states, (n) => void (m.dropped += n));
    members.push(m);
    return m;
  };
  const handled = () => members.reduce((n, m) => n + m.handled, 0);

  beforeAll(async () => {
    brokers = await requireKafka();
    await redis.connect().catch((error: Error) => {
      throw new Error(`Redis is not reachable at 127.0.0.1:6379 (run npm run infra:up): ${error.message}`);
    });
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: PARTITIONS, only: [TOPIC] });
  });

  afterAll(async () => {
    for (const m of members) await m.bus.stop().catch(() => undefined);
    await redis.quit();
  });

  it('drops what moved away, restores what arrives, and decides as one uninterrupted worker', async () => {
    const producer = createKafkaBus(kafkaClientUnderTest(), { brokers, topicPrefix: prefix, clientId: 'move-producer', log: () => undefined });
    const reference = new DetectionEngine({ policyFor: () => ({ policy }) });
    const all = Array.from({ length: AGENTS }, (_, a) => calls(a, 0, 24));
    const expected = all.flatMap((steps) => steps.flatMap((l) => reference.onStep(l.step)));
    try {
      const a = member('worker-a');
      await a.bus.start();
      await until(() => a.held.length === PARTITIONS, 30_000, 'worker A holding every partition');

      // Phase 1 on A alone: 6 calls per agent.
      await producer.publish(TOPIC, all.flatMap((s) => s.slice(0, 12)));
      await until(() => handled() === AGENTS * 12, 60_000, `phase 1 handled (${handled()})`);
      expect(a.worker.states.size).toBe(AGENTS);

      // B joins: partitions move; A writes back and drops the agents of those it lost.
      const b = member('worker-b');
      await b.bus.start();
      await until(() => b.held.length > 0 && a.held.length + b.held.length === PARTITIONS, 30_000, 'the partitions shared by A and B');
      await until(() => a.dropped > 0, 10_000, 'A dropping the agents of its revoked partitions');
      const movedAgents = [...a.partitionOf].filter(([, p]) => b.held.includes(p)).map(([agent]) => agent);
      expect(movedAgents.length).toBeGreaterThan(0);
      expect(a.dropped).toBe(movedAgents.length);
      for (const agent of movedAgents) expect(a.worker.engine.exportAgentState(TENANT, agent)).toBeUndefined();
      const kept = [...a.partitionOf].filter(([, p]) => a.held.includes(p)).map(([agent]) => agent);
      for (const agent of kept) expect(a.worker.engine.exportAgentState(TENANT, agent)).toBeDefined();

      // Phase 2 on both: 6 more calls; the moved agents continue on B from the state A wrote.
      const beforePhase2 = handled();
      await producer.publish(TOPIC, all.flatMap((s) => s.slice(12, 24)));
      await until(() => handled() - beforePhase2 === AGENTS * 12, 60_000, `phase 2 handled (${handled() - beforePhase2})`);
      expect(b.handled).toBeGreaterThan(0);
      expect(b.worker.states.size).toBe(movedAgents.length);

      // B leaves: its partitions come back to A, whose agents restore on their next event.
      await b.bus.stop();
      await until(() => a.held.length === PARTITIONS, 30_000, 'worker A holding every partition again');
      const beforePhase3 = handled();
      await producer.publish(TOPIC, all.flatMap((s) => s.slice(24)));
      await until(() => handled() - beforePhase3 === AGENTS * 24, 60_000, `phase 3 handled (${handled() - beforePhase3})`);

      const distinct = new Map(deviations.map((d) => [d.eventId, d]));
      expect(deviations.length).toBe(distinct.size);
      expect([...distinct.keys()].sort()).toEqual(expected.map((d) => d.eventId).sort());
      for (const d of expected) expect(distinct.get(d.eventId)?.count).toBe(d.count);
      // Both levels fired, after both moves: the counts went on from the durable state.
      expect(new Set(expected.map((d) => d.level))).toEqual(new Set(['warning', 'critical']));
      expect(a.worker.states.conflicts + b.worker.states.conflicts).toBe(0);
    } finally {
      await producer.stop().catch(() => undefined);
    }
  }, 240_000);
});
