/**
 * Chaos 2 (issue 14): the state localizer is SIGKILLed while steps wait for their task's map, on the real
 * broker and Redis. The held steps were committed only once held in Redis: after the restart, when the
 * map comes, every one of them is localized on it, once.
 */
import Redis from 'ioredis';
import type { CognitiveMap, LocalizedStep, StepEvent, TaskSpec } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { parseTask } from '@wayfinder/cognitive-map';
import { tenantKey } from '@wayfinder/redis';
import { chaosFigures, deleteTestTopics, requireKafka, startServiceProcess, stopServiceProcess, uniqueTestName, until, type ServiceProcess } from '@wayfinder/testing';

const TENANT = 'chaos:loc%1';
const AGENTS = 20;
const STEPS_PER_AGENT = 5;
const ts = '2026-01-01T00:00:00.000Z';

function step(agent: number, seq: number): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId: `a:${agent}-s${seq}`, tenantId: TENANT, agentId: `a:${agent}`, taskId: 'late:task', runId: 'r1', seq, ts, kind: 'action', action: { tool: 'collect', args: { n: seq } } };
}

function map(): CognitiveMap {
  const spec: TaskSpec = {
    schema: 'wayfinder.task.v1', eventId: 'task-late', tenantId: TENANT, ts, taskId: 'late:task', goal: 'collect the data then write the report',
    milestones: [
      { id: 'collect', description: 'collect the data', dependsOn: [] },
      { id: 'write', description: 'write the report', dependsOn: ['collect'] },
    ],
  };
  const parsed = parseTask(spec);
  if (!parsed.ok) throw new Error('bad test map');
  return parsed.value;
}

describe('chaos: the state localizer killed while steps wait for their map', () => {
  const prefix = `${uniqueTestName('chaos-loc')}.`;
  // A hold longer than the test: the steps must wait for the map, not time out as unknown.
  // The state-localizer stage service (the separate pipeline holds steps for their map; one-pass does not).
  const env = { WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_LOCALIZER_HOLD_MS: '600000', WAYFINDER_PIPELINE: 'separate' };
  const redis = new Redis(process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  let brokers: string[];
  let bus: KafkaBus;
  let localizer: ServiceProcess | undefined;
  const seen: LocalizedStep[] = [];

  beforeAll(async () => {
    brokers = await requireKafka();
    await redis.connect();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
    bus = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'chaos-loc-test' });
    bus.subscribe('wayfinder.localized.v1', async (batch) => void seen.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
    await bus.start();
  });

  afterAll(async () => {
    if (localizer) await stopServiceProcess(localizer);
    await bus?.stop();
    await redis.del(tenantKey(TENANT, 'held', prefix, 'late:task')).catch(() => undefined);
    await redis.quit();
    if (brokers) await deleteTestTopics(brokers, prefix);
  });

  it('localizes every held step once, on the map that came after the restart', async () => {
    localizer = startServiceProcess('state-localizer', env, 'chaos-loc-1');
    await localizer.ready;
    const steps = Array.from({ length: AGENTS }, (_, a) => Array.from({ length: STEPS_PER_AGENT }, (_, s) => step(a, s))).flat();
    await bus.publish('wayfinder.steps.v1', steps);
    const heldKey = tenantKey(TENANT, 'held', prefix, 'late:task');
    const started = Date.now();
    while ((await redis.llen(heldKey)) < steps.length) {
      if (Date.now() - started > 30_000) throw new Error(`only ${await redis.llen(heldKey)} of ${steps.length} steps held after 30 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toEqual([]);
    await new Promise((r) => setTimeout(r, 1_500)); // past the auto-commit interval: the held steps' offsets are committed

    localizer.child.kill('SIGKILL');
    await localizer.exited;
    localizer = startServiceProcess('state-localizer', env, 'chaos-loc-2');
    await localizer.ready;
    await bus.publish('wayfinder.maps.v1', [map()]);
    await until(() => new Set(seen.map((l) => l.eventId)).size >= steps.length, 60_000, `every held step localized (seen ${seen.length})`);
    await new Promise((r) => setTimeout(r, 1_000));

    const counts = new Map<string, number>();
    for (const l of seen) counts.set(l.eventId, (counts.get(l.eventId) ?? 0) + 1);
    chaosFigures('state-localizer SIGKILL with held steps', {
      sent: steps.length,
      processed: counts.size,
      duplicated: seen.length - counts.size,
      lost: steps.filter((s) => !counts.has(s.eventId)).length,
      deadLettered: 0,
    });
    expect([...counts.keys()].sort()).toEqual(steps.map((s) => s.eventId).sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    // Localized on the map (a position on one of its milestones), not passed on as unknown after a timeout.
    expect(seen.every((l) => l.position.milestoneId === 'collect')).toBe(true);
    // Per agent, in seq order.
    for (let a = 0; a < AGENTS; a++) {
      const mine = seen.filter((l) => l.step.agentId === `a:${a}`).map((l) => l.step.seq);
      expect(mine).toEqual([...mine].sort((x, y) => x - y));
    }
    expect(await redis.llen(heldKey)).toBe(0);
  });
});
