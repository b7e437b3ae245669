/**
 * Chaos 4 (issue 14): Redis (a server of the test's own) is killed for 10 s while steps flow through the
 * localizer, the detector worker and the correction engine on the real broker. No good message goes to
 * a DLQ — the services pause consumption while Redis does not answer — no process exits, and processing
 * resumes: every step sent is localized.
 */
import type { CognitiveMap, LocalizedStep, StepEvent, TaskSpec } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { parseTask } from '@wayfinder/cognitive-map';
import { chaosFigures, deleteTestTopics, OwnRedis, requireKafka, startServiceProcess, stopServiceProcess, uniqueTestName, until, type ServiceProcess } from '@wayfinder/testing';

const TENANT = 'chaos-redis';
const AGENTS = 30;
const LOAD_MS = 20_000;
const WAVE_MS = 250;
const OUTAGE_AFTER_MS = 4_000;
const OUTAGE_MS = 10_000;
const ts = '2026-01-01T00:00:00.000Z';
const DLQS = ['wayfinder.steps.v1.dlq', 'wayfinder.localized.v1.dlq', 'wayfinder.deviations.v1.dlq', 'wayfinder.maps.v1.dlq'];

function step(agent: number, seq: number): StepEvent {
  return { schema: 'wayfinder.step.v1', eventId: `r${agent}-${seq}`, tenantId: TENANT, agentId: `agent-${agent}`, taskId: 'job', runId: 'r1', seq, ts: new Date(Date.now()).toISOString(), kind: 'action', action: { tool: 'collect', args: { page: seq } } };
}

function map(): CognitiveMap {
  const spec: TaskSpec = {
    schema: 'wayfinder.task.v1', eventId: 'task-job', tenantId: TENANT, ts, taskId: 'job', goal: 'collect the data then write the report',
    milestones: [
      { id: 'collect', description: 'collect the data', dependsOn: [] },
      { id: 'write', description: 'write the report', dependsOn: ['collect'] },
    ],
  };
  const parsed = parseTask(spec);
  if (!parsed.ok) throw new Error('bad test map');
  return parsed.value;
}

describe('chaos: Redis stopped for 10 s during load', () => {
  const prefix = `${uniqueTestName('chaos-redis')}.`;
  let brokers: string[];
  let bus: KafkaBus;
  let redis: OwnRedis | undefined;
  let services: ServiceProcess | undefined;
  const localized: LocalizedStep[] = [];
  const deadLettered: string[] = [];

  beforeAll(async () => {
    brokers = await requireKafka();
    redis = await OwnRedis.start();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 4 });
    bus = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'chaos-redis-test' });
    bus.subscribe('wayfinder.localized.v1', async (batch) => void localized.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
    for (const dlq of DLQS) bus.subscribeRaw(dlq, async (batch) => void deadLettered.push(...batch.map((d) => `${dlq}: ${d.headers['wf-dlq-error']}`)), { groupId: `observer-${dlq}` });
    await bus.start();
  });

  afterAll(async () => {
    if (services) await stopServiceProcess(services);
    await bus?.stop();
    await redis?.stop();
    if (brokers) await deleteTestTopics(brokers, prefix);
  });

  it('dead-letters nothing, keeps every process alive and localizes every step once Redis is back', async () => {
    services = startServiceProcess('state-localizer,detector-worker,correction-engine', { WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_REDIS_URL: redis!.url }, 'chaos-redis-services');
    await services.ready;
    await bus.publish('wayfinder.maps.v1', [map()]);
    await new Promise((r) => setTimeout(r, 1_000));

    const sent: StepEvent[] = [];
    const started = Date.now();
    let outage: Promise<void> | undefined;
    for (let seq = 0; Date.now() - started < LOAD_MS; seq++) {
      const wave = Array.from({ length: AGENTS }, (_, a) => step(a, seq));
      await bus.publish('wayfinder.steps.v1', wave);
      sent.push(...wave);
      if (!outage && Date.now() - started >= OUTAGE_AFTER_MS) {
        outage = (async () => {
          await redis!.kill();
          await new Promise((r) => setTimeout(r, OUTAGE_MS));
          await redis!.up();
        })();
      }
      await new Promise((r) => setTimeout(r, WAVE_MS));
    }
    await outage;
    await until(() => new Set(localized.map((l) => l.eventId)).size >= sent.length, 90_000, `every step localized after the outage (${new Set(localized.map((l) => l.eventId)).size} of ${sent.length})`);
    await new Promise((r) => setTimeout(r, 1_000));

    const distinct = new Set(localized.map((l) => l.eventId));
    chaosFigures('Redis stopped 10 s during load', {
      sent: sent.length,
      processed: distinct.size,
      duplicated: localized.length - distinct.size,
      lost: sent.filter((s) => !distinct.has(s.eventId)).length,
      deadLettered: deadLettered.length,
    });
    expect(deadLettered).toEqual([]);
    expect(services.child.exitCode).toBeNull();
    expect(services.log()).toContain('consumption paused');
    expect(sent.every((s) => distinct.has(s.eventId))).toBe(true);
  });
});
