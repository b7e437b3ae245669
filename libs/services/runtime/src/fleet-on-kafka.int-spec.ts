/**
 * The fleet acceptance test on the real broker and Redis: 500 simulated agents over three tenants
 * (balanced, strict, lenient), 50 of them fallen into a loop or a stall, through the four stream services
 * distributed on Kafka with Redis (startServices, as `wayfinder start --mode distributed` runs them).
 * The test drives the fleet in lockstep rounds — publish one step per working agent, wait until every
 * consumer in this process has handled everything the round caused (steps → localized → deviations →
 * corrections), hand the corrections back to their agents — so each correction reaches its agent before
 * the agent's next step whatever the machine's load, and a seeded run gives the same story every time —
 * the very story the same services tell embedded, which the last test checks decision by decision.
 * The 60-agent embedded version of this test is apps/cli/src/demo/fleet-through-embedded-pipeline.spec.ts.
 */
import Redis from 'ioredis';
import type { Correction, Deviation, Escalation } from '@wayfinder/contracts';
import { InProcessBus, KafkaBus, SettlingBus, createTopics } from '@wayfinder/bus';
import { loadConfig, type WayfinderConfig } from '@wayfinder/config';
import { SimulatedFleet, deleteTestTopics, requireKafka, uniqueTestName, type FailureKind, type FleetOptions, type TenantSetup } from '@wayfinder/testing';
import { startServices } from './runtime';

/**
 * The built-in profiles, with stagnation tightened (as in the fleet's default tenants) so that a stall
 * shows within a short run. A healthy agent makes at most 4 calls between milestones: far below 6.
 */
const TENANTS: readonly TenantSetup[] = [
  { tenantId: 'acme', label: 'balanced', policy: { profile: 'balanced', stagnation: { warningSteps: 8, criticalSteps: 16 } } },
  { tenantId: 'globex', label: 'strict', policy: { profile: 'strict', stagnation: { warningSteps: 6, criticalSteps: 12 } } },
  { tenantId: 'initech', label: 'lenient', policy: { profile: 'lenient', stagnation: { warningSteps: 10, criticalSteps: 20 } } },
];

/**
 * Loops the detectors catch within a few calls, and stalls. Polls and unknown tools are left out: under
 * the lenient profile they take 15 calls, which would double the rounds. Agent 10k belongs to tenant
 * k mod 3 and gets kind k mod 5, so every kind lands in every tenant three or four times.
 */
const KINDS: readonly FailureKind[] = ['monologue', 'same_call', 'rephrased_search', 'ping_pong', 'stagnation'];
const INJECT: FleetOptions['inject'] = Array.from({ length: 50 }, (_, k) => ({ agent: 10 * k, kind: KINDS[k % KINDS.length] }));

/** The fleet settles in about 60 rounds (the last healed agents finish their tasks); this is only a bound. */
const MAX_ROUNDS = 100;
const ROUND_TIMEOUT_MS = 60_000;
/** The memory service is left out: nothing on the navigation path waits for it, and the run must stay short. */
const SERVICES = 'task-parser,state-localizer,detector-worker,correction-engine';
const REDIS_URL = process.env['WAYFINDER_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('a 500-agent fleet through the distributed pipeline on Kafka and Redis', () => {
  const prefix = `${uniqueTestName('fleet')}.`;
  const fleet = newFleet();
  const redisKeys = { maps: 0, navigationStates: 0 };
  let brokers: string[] | undefined;
  let run: FleetRun;
  let embedded: FleetRun;

  beforeAll(async () => {
    brokers = await requireKafka();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 4 });
    const config = loadConfig({
      WAYFINDER_MODE: 'distributed',
      WAYFINDER_SERVICES: SERVICES,
      WAYFINDER_KAFKA_BROKERS: brokers.join(','),
      WAYFINDER_REDIS_URL: REDIS_URL,
      WAYFINDER_TOPIC_PREFIX: prefix,
    });
    run = await driveFleet(fleet, config, new SettlingBus(new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'fleet-test' })));
    redisKeys.maps = await countRedisKeys(`wf:*:map:${prefix}:*`);
    // Per-agent navigation documents (the one-pass navigator: localizers, detectors and ladder in one).
    redisKeys.navigationStates = await countRedisKeys(`wf:*:navigation:${prefix}:*`);
    // The same fleet through the same services embedded (in-process bus, in-memory stores): the reference.
    embedded = await driveFleet(newFleet(), loadConfig({ WAYFINDER_SERVICES: SERVICES }), new SettlingBus(new InProcessBus()));
  }, 170_000);

  afterAll(async () => {
    if (brokers) await deleteTestTopics(brokers, prefix);
    await deleteRedisKeys(`wf:*:${prefix}:*`);
  }, 60_000);

  it('runs until every agent has finished or been frozen, nothing dead-lettered, its state in Redis', () => {
    expect(fleet.settled).toBe(true);
    expect(run.rounds).toBeLessThan(MAX_ROUNDS);
    expect(run.deadLetters).toEqual([]);
    // One map per task (500) in the Redis map store, and the one state document of every agent written back.
    expect(redisKeys).toEqual({ maps: 500, navigationStates: 500 });
  });

  it('detects and corrects every injected failure, from the step where it began', () => {
    const truth = fleet.groundTruth();
    expect(truth).toHaveLength(50);
    for (const f of truth) {
      const devs = run.deviations.filter((d) => d.tenantId === f.tenantId && d.agentId === f.agentId).sort((a, b) => a.atSeq - b.atSeq);
      const cors = run.corrections.filter((c) => c.tenantId === f.tenantId && c.agentId === f.agentId);
      expect({ agent: f.agentId, kind: f.kind, started: f.startSeq !== null, detected: devs.length > 0, corrected: cors.length > 0 }).toEqual({
        agent: f.agentId, kind: f.kind, started: true, detected: true, corrected: true,
      });
      expect(devs[0].atSeq).toBeGreaterThanOrEqual(f.startSeq ?? Number.POSITIVE_INFINITY);
      // Each correction answers deviations of this very agent, as they came over the broker.
      const ids = new Set(devs.map((d) => d.eventId));
      for (const c of cors) expect(c.deviationIds.filter((id) => !ids.has(id))).toEqual([]);
    }
  });

  it('heals the agents a correction can reach, and freezes and escalates those that need a human', () => {
    const injected = fleet.agentRecords().filter((r) => r.failure);
    for (const a of injected) {
      if (a.failure?.respondsTo === 'human') {
        expect({ agent: a.agentId, state: a.state }).toEqual({ agent: a.agentId, state: 'frozen' });
        expect(run.escalations.filter((e) => e.tenantId === a.tenantId && e.agentId === a.agentId)).toHaveLength(1);
      } else {
        expect({ agent: a.agentId, state: a.state, healed: a.corrections.some((c) => c.effect === 'recovered') }).toEqual({ agent: a.agentId, state: 'done', healed: true });
      }
    }
    expect(run.escalations).toHaveLength(injected.filter((a) => a.failure?.respondsTo === 'human').length);
  });

  it('flags and corrects no healthy agent, and every healthy agent finishes its task', () => {
    const healthy = fleet.agentRecords().filter((r) => !r.failure);
    expect(healthy).toHaveLength(450);
    const flagged = run.deviations.filter((d) => !fleet.isInjected(d.tenantId, d.agentId));
    expect(flagged.map((d) => `${d.tenantId}/${d.agentId} ${d.detector} ${d.level} at ${d.atSeq}: ${d.message}`)).toEqual([]);
    expect(run.corrections.filter((c) => !fleet.isInjected(c.tenantId, c.agentId))).toEqual([]);
    for (const a of healthy) expect({ agent: a.agentId, done: a.milestonesDone.map((m) => m.id) }).toEqual({ agent: a.agentId, done: a.milestones });
  });

  it("applies each tenant's own thresholds: the same failure is caught later the more lenient the tenant", () => {
    const first = (tenantId: string, detector: Deviation['detector']) =>
      run.deviations.filter((d) => d.tenantId === tenantId && d.detector === detector).sort((a, b) => a.count - b.count)[0];
    // The same monologue: 2 (strict), 3 (balanced), 4 (lenient) near-identical thoughts in a row.
    expect(first('globex', 'monologue')).toMatchObject({ level: 'warning', count: 2 });
    expect(first('acme', 'monologue')).toMatchObject({ level: 'warning', count: 3 });
    expect(first('initech', 'monologue')).toMatchObject({ level: 'warning', count: 4 });
    // The same stall: 6, 8, 10 actions without milestone progress.
    expect(first('globex', 'stagnation')).toMatchObject({ level: 'warning', count: 6 });
    expect(first('acme', 'stagnation')).toMatchObject({ level: 'warning', count: 8 });
    expect(first('initech', 'stagnation')).toMatchObject({ level: 'warning', count: 10 });
  });

  it('decides exactly as the same services embedded: Kafka, its partitions and Redis change no decision', () => {
    expect(run.rounds).toBe(embedded.rounds);
    expect(run.deviations.map(deviationLine).sort()).toEqual(embedded.deviations.map(deviationLine).sort());
    expect(run.corrections.map(correctionLine).sort()).toEqual(embedded.corrections.map(correctionLine).sort());
    expect(run.escalations.map((e) => `${e.tenantId}/${e.agentId}`).sort()).toEqual(embedded.escalations.map((e) => `${e.tenantId}/${e.agentId}`).sort());
  });
});

function newFleet(): SimulatedFleet {
  return new SimulatedFleet({ seed: 500, agents: 500, inject: INJECT, tenants: TENANTS });
}

interface FleetRun {
  readonly rounds: number;
  readonly deviations: Deviation[];
  readonly corrections: Correction[];
  readonly escalations: Escalation[];
  readonly deadLetters: readonly string[];
}

/**
 * Starts the services on `bus`, publishes the tenants' policies and the tasks, then runs the fleet in
 * lockstep rounds until every agent has finished or been frozen, and stops the services.
 */
async function driveFleet(fleet: SimulatedFleet, config: WayfinderConfig, bus: SettlingBus): Promise<FleetRun> {
  const run = { rounds: 0, deviations: [] as Deviation[], corrections: [] as Correction[], escalations: [] as Escalation[], deadLetters: bus.deadLetters };
  let inbox: Correction[] = [];
  // On the services' own bus, subscribed before they start: a round ends only once these saw it too.
  bus.subscribe('wayfinder.deviations.v1', async (batch) => void run.deviations.push(...batch.map((d) => d.payload)), { groupId: 'fleet-observer' });
  bus.subscribe('wayfinder.corrections.v1', async (batch) => void inbox.push(...batch.map((d) => d.payload)), { groupId: 'fleet-observer' });
  bus.subscribe('wayfinder.escalations.v1', async (batch) => void run.escalations.push(...batch.map((d) => d.payload)), { groupId: 'fleet-observer' });
  const running = await startServices(config, { bus, logger: false });
  try {
    // Policies and maps first: every step must be judged under its tenant's policy, on its task's map.
    await running.bus.publish('wayfinder.policies.v1', fleet.policies());
    await running.bus.publish('wayfinder.tasks.v1', fleet.tasks());
    await bus.settled(ROUND_TIMEOUT_MS);
    for (; run.rounds < MAX_ROUNDS && !fleet.settled; run.rounds++) {
      await running.bus.publish('wayfinder.steps.v1', fleet.nextSteps());
      await bus.settled(ROUND_TIMEOUT_MS);
      const arrived = inbox.sort(byAgentThenSeq);
      inbox = [];
      for (const c of arrived) {
        run.corrections.push(c);
        fleet.applyCorrection(c);
      }
    }
  } finally {
    await running.stop();
  }
  return run;
}

function deviationLine(d: Deviation): string {
  return `${d.tenantId}/${d.agentId} ${d.detector} ${d.level} ${d.count} at ${d.atSeq} from ${d.loopStartSeq}`;
}

function correctionLine(c: Correction): string {
  return `${c.tenantId}/${c.agentId} ${c.severity} ${c.action} at ${c.atSeq}`;
}

function byAgentThenSeq(a: Correction, b: Correction): number {
  return a.tenantId.localeCompare(b.tenantId) || a.agentId.localeCompare(b.agentId) || a.atSeq - b.atSeq || a.eventId.localeCompare(b.eventId);
}

/** Keys of the services' Redis (namespaced by the topic prefix: `wf:{tenant}:<kind>:<prefix>:…`) matching `pattern`. */
async function scanRedis(pattern: string, each: (redis: Redis, keys: string[]) => Promise<unknown>): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1_000);
      if (keys.length > 0) await each(redis, keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function countRedisKeys(pattern: string): Promise<number> {
  let n = 0;
  await scanRedis(pattern, async (_, keys) => (n += keys.length));
  return n;
}

/** Best effort: the keys expire on their own, and every run uses a new prefix. */
async function deleteRedisKeys(pattern: string): Promise<void> {
  await scanRedis(pattern, (redis, keys) => redis.unlink(...keys)).catch(() => undefined);
}
