/**
 * Chaos 3 (issue 14): the Kafka broker (one of the test's own) is killed and restarted while steps flow
 * through the localizer and the detector worker. Every step the broker accepted is processed, and none
 * is processed twice into a second, different deviation: the deviations are exactly those of one
 * uninterrupted detection engine fed the same steps (redelivered ones carry the same eventId), and each
 * agent's steps are localized in seq order (issue #17: a step held for a map once overtook).
 */
import type { Deviation, LocalizedStep, StepEvent } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { DetectionEngine, resolvePolicy } from '@wayfinder/detection';
import { chaosFigures, OwnKafka, OwnRedis, startServiceProcess, stopServiceProcess, until, type ServiceProcess } from '@wayfinder/testing';

const TENANT = 'chaos-broker';
const AGENTS = 20;
const CALLS = 30;
const ts = (seq: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString();

/** A poll that never changes: warnings and criticals of the poll detector, at fixed counts. */
function agentSteps(agent: number): StepEvent[] {
  const agentId = `agent-${agent}`;
  const out: StepEvent[] = [];
  let seq = 0;
  for (let i = 0; i < CALLS; i++) {
    const base = { schema: 'wayfinder.step.v1' as const, tenantId: TENANT, agentId, taskId: 'job', runId: 'r1' };
    out.push({ ...base, eventId: `${agentId}-${seq}`, seq, ts: ts(seq++), kind: 'action', action: { tool: 'job_status', args: { job: `j-${agent}` }, callId: `c${i}` } });
    out.push({ ...base, eventId: `${agentId}-${seq}`, seq, ts: ts(seq++), kind: 'observation', observation: { tool: 'job_status', callId: `c${i}`, ok: true, content: { state: 'pending' } } });
  }
  return out;
}

describe('chaos: the broker restarted during load', () => {
  let redis: OwnRedis | undefined;
  let kafka: OwnKafka | undefined;
  let bus: KafkaBus | undefined;
  let services: ServiceProcess | undefined;
  const localized: LocalizedStep[] = [];
  const deviations: Deviation[] = [];
  const deadLettered: string[] = [];

  beforeAll(async () => {
    redis = await OwnRedis.start();
    kafka = await OwnKafka.start(redis.port);
    await createTopics(kafka.brokers, { partitionsOverride: 4 });
    bus = new KafkaBus({ brokers: kafka.brokers, clientId: 'chaos-broker-test' });
    bus.subscribe('wayfinder.localized.v1', async (batch) => void localized.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
    bus.subscribe('wayfinder.deviations.v1', async (batch) => void deviations.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
    for (const dlq of ['wayfinder.steps.v1.dlq', 'wayfinder.localized.v1.dlq']) {
      bus.subscribeRaw(dlq, async (batch) => void deadLettered.push(...batch.map((d) => `${dlq}: ${d.headers['wf-dlq-error']}`)), { groupId: `observer-${dlq}` });
    }
    await bus.start();
  }, 240_000);

  afterAll(async () => {
    if (services) await stopServiceProcess(services);
    await bus?.stop().catch(() => undefined);
    await kafka?.stop();
    await redis?.stop();
  }, 120_000);

  it('processes every accepted step and doubles no deviation', async () => {
    services = startServiceProcess('state-localizer,detector-worker', {
      WAYFINDER_KAFKA_BROKERS: kafka!.brokers.join(','),
      WAYFINDER_REDIS_URL: redis!.url,
      WAYFINDER_PROFILE: 'openclaw',
      WAYFINDER_LOCALIZER_HOLD_MS: '200',
    }, 'chaos-broker-services');
    await services.ready;
    const steps = Array.from({ length: AGENTS }, (_, a) => agentSteps(a));
    const accepted: StepEvent[] = [];
    const rejected: StepEvent[] = [];
    const publishWave = async (wave: StepEvent[]) => {
      try {
        await bus!.publish('wayfinder.steps.v1', wave);
        accepted.push(...wave);
      } catch {
        rejected.push(...wave);
      }
    };
    const per = steps[0].length;
    let restart: Promise<void> | undefined;
    for (let i = 0; i < per; i += 2) {
      await publishWave(steps.flatMap((a) => a.slice(i, i + 2)));
      if (i === 20) {
        restart = (async () => {
          await kafka!.kill();
          await new Promise((r) => setTimeout(r, 2_000));
          await kafka!.up();
        })();
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await restart;

    const policy = resolvePolicy({ profile: 'openclaw' });
    const reference = new DetectionEngine({ policyFor: () => ({ policy }) });
    const expected = new Map<string, Deviation>();
    for (const agent of steps) for (const s of agent) if (accepted.some((a) => a.eventId === s.eventId)) for (const d of reference.onStep(s)) expected.set(d.eventId, d);
    expect(expected.size).toBeGreaterThan(0);

    await until(() => new Set(localized.map((l) => l.eventId)).size >= accepted.length, 120_000, `every accepted step localized (${new Set(localized.map((l) => l.eventId)).size} of ${accepted.length})`);
    await until(() => new Set(deviations.map((d) => d.eventId)).size >= expected.size, 60_000, `every expected deviation (${new Set(deviations.map((d) => d.eventId)).size} of ${expected.size})`);
    await new Promise((r) => setTimeout(r, 2_000));

    const distinctSteps = new Set(localized.map((l) => l.eventId));
    const distinct = new Map(deviations.map((d) => [d.eventId, d]));
    chaosFigures('broker restarted during load', {
      sent: accepted.length + rejected.length,
      processed: distinctSteps.size,
      duplicated: localized.length - distinctSteps.size,
      lost: accepted.filter((s) => !distinctSteps.has(s.eventId)).length,
      deadLettered: deadLettered.length,
    });
    expect(services.child.exitCode).toBeNull();
    expect(deadLettered).toEqual([]);
    expect(accepted.every((s) => distinctSteps.has(s.eventId))).toBe(true);
    // Each agent's steps were localized in seq order: the detector skips a step at or below the last seq it
    // applied, so a step that overtook another loses the other.
    const lastSeq = new Map<string, number>();
    const overtaken: string[] = [];
    const seen = new Set<string>();
    for (const l of localized) {
      if (seen.has(l.eventId)) continue;
      seen.add(l.eventId);
      const last = lastSeq.get(l.step.agentId) ?? -1;
      if (l.step.seq < last) overtaken.push(`${l.eventId} after seq ${last}`);
      else lastSeq.set(l.step.agentId, l.step.seq);
    }
    expect(overtaken).toEqual([]);
    expect([...distinct.keys()].sort()).toEqual([...expected.keys()].sort());
    const byStep = new Set([...distinct.values()].map((d) => `${d.agentId}/${d.atSeq}/${d.detector}/${d.level}`));
    expect(byStep.size).toBe(distinct.size);
  });
});
