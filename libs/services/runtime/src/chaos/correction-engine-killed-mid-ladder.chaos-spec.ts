/**
 * Chaos 1 (issue 14): the correction engine is SIGKILLed in the middle of a ladder, on the real broker
 * and Redis. After the restart the agent's next correction is the next rung — a rollback after the
 * hint — to the checkpoint it had (not "discard everything"), and no hint is repeated: the corrections
 * are exactly those of one uninterrupted engine.
 */
import type { Correction, DetectedStep, Deviation, LocalizedStep, Position, StepEvent } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { CorrectionEngine } from '@wayfinder/correction';
import { resolvePolicy } from '@wayfinder/detection';
import { LadderStage } from '@wayfinder/navigation';
import { chaosFigures, deleteTestTopics, requireKafka, startServiceProcess, stopServiceProcess, uniqueTestName, until, type ServiceProcess } from '@wayfinder/testing';

const TENANT = 'chaos:tenant%1';
const AGENTS = ['agent:1', 'agent%2', 'agent-3'];
const ts = '2026-01-01T00:00:00.000Z';

function step(agentId: string, seq: number): LocalizedStep {
  const s: StepEvent = { schema: 'wayfinder.step.v1', eventId: `${agentId}-s${seq}`, tenantId: TENANT, agentId, taskId: 'job', runId: 'r1', seq, ts, kind: 'action', action: { tool: 'web_search', args: { q: 'acme pricing' } } };
  const position: Position = seq < 4 ? { milestoneId: 'm1', completed: [], progress: 0, confidence: 1, method: 'signal' } : { milestoneId: 'm2', completed: ['m1'], progress: 0.25, confidence: 1, method: 'signal' };
  return { schema: 'wayfinder.localized.v1', eventId: s.eventId, tenantId: TENANT, ts, step: s, position };
}

function deviation(agentId: string, atSeq: number): Deviation {
  return {
    schema: 'wayfinder.deviation.v1', eventId: `${agentId}-d${atSeq}`, tenantId: TENANT, ts, agentId, taskId: 'job', runId: 'r1', detector: 'generic_repeat', level: 'warning',
    count: 11, atSeq, loopStartSeq: 0, evidence: { tool: 'web_search', args: { q: 'acme pricing' }, argsHash: 'h1' }, message: `repeat at ${atSeq}`,
  };
}

/** What the detector worker hands the correction engine: the steps up to `atSeq`, the last with its deviation. */
function detected(agentId: string, seqs: number[], atSeq: number): DetectedStep[] {
  return seqs.map((seq) => {
    const { step: s, position } = step(agentId, seq);
    return { schema: 'wayfinder.detected.v1', eventId: s.eventId, tenantId: TENANT, ts, agentId, step: s, position, deviations: seq === atSeq ? [deviation(agentId, atSeq)] : [] };
  });
}

describe('chaos: the correction engine killed in the middle of a ladder', () => {
  const prefix = `${uniqueTestName('chaos-ce')}.`;
  // The correction-engine stage service itself (the separate pipeline); navigator-killed-mid-ladder covers one-pass.
  const env = { WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_PROFILE: 'balanced', WAYFINDER_PIPELINE: 'separate' };
  let brokers: string[];
  let bus: KafkaBus;
  let engine: ServiceProcess | undefined;
  const seen: Correction[] = [];

  beforeAll(async () => {
    brokers = await requireKafka();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
    bus = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'chaos-ce-test' });
    bus.subscribe('wayfinder.corrections.v1', async (batch) => void seen.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
    await bus.start();
  });

  afterAll(async () => {
    if (engine) await stopServiceProcess(engine);
    await bus?.stop();
    if (brokers) await deleteTestTopics(brokers, prefix);
  });

  it('resumes the ladder at the next rung with the checkpoint it had, repeating no hint', async () => {
    engine = startServiceProcess('correction-engine', env, 'chaos-ce-1');
    await engine.ready;
    await bus.publish('wayfinder.detected.v1', AGENTS.flatMap((a) => detected(a, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 10)));
    await until(() => AGENTS.every((a) => seen.some((c) => c.agentId === a && c.action === 'hint')), 30_000, 'a hint for every agent');

    engine.child.kill('SIGKILL');
    await engine.exited;
    engine = startServiceProcess('correction-engine', env, 'chaos-ce-2');
    await engine.ready;
    await bus.publish('wayfinder.detected.v1', AGENTS.flatMap((a) => detected(a, [11, 12, 13], 13)));
    await until(() => AGENTS.every((a) => seen.some((c) => c.agentId === a && c.action !== 'hint')), 60_000, 'the next correction of every agent');
    await new Promise((r) => setTimeout(r, 1_000));

    // One engine that never stopped, fed the same events in the same order.
    const policy = resolvePolicy({ profile: 'balanced' });
    const reference = new LadderStage(new CorrectionEngine(), () => policy);
    const expected = new Map<string, Correction>();
    const feed = (seqs: number[], at: number) => {
      for (const a of AGENTS) for (const seq of seqs) reference.onStep(step(a, seq).step, step(a, seq).position, undefined);
      for (const a of AGENTS) for (const c of reference.onDeviation(deviation(a, at), undefined).corrections) expected.set(c.eventId, c);
    };
    feed([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 10);
    feed([11, 12, 13], 13);

    const distinct = new Map(seen.map((c) => [c.eventId, c]));
    chaosFigures('correction-engine SIGKILL mid-ladder', {
      sent: AGENTS.length * 2,
      processed: distinct.size,
      duplicated: seen.length - distinct.size,
      lost: [...expected.keys()].filter((id) => !distinct.has(id)).length,
      deadLettered: 0,
    });
    expect([...distinct.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const a of AGENTS) {
      const mine = [...distinct.values()].filter((c) => c.agentId === a);
      expect(mine.map((c) => c.action)).toEqual(['hint', 'rollback']);
      const rollback = mine[1];
      expect(rollback.action === 'rollback' && rollback.rollback).toEqual({ checkpointId: 'cp:job:m1:4', milestoneId: 'm1', discardAfterSeq: 4 });
    }
  });
});
