/**
 * Chaos (issue #28): the one-pass navigator is SIGKILLed in the middle of its agents' ladders, on the real
 * broker and Redis. Each agent's one state document (localizers, detectors, ladder) is restored by the
 * next process: the corrections are exactly those of one Navigator that never stopped, fed the same
 * steps (event ids included) — no hint repeated, no rung skipped, nothing lost.
 */
import type { Correction } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { resolvePolicy } from '@wayfinder/detection';
import { createNavigator } from '@wayfinder/navigation';
import { chaosFigures, deleteTestTopics, requireKafka, startServiceProcess, stopServiceProcess, uniqueTestName, until, type ServiceProcess } from '@wayfinder/testing';
import { sameSearchLoop } from '../same-search-loop.testing';

const TENANT = 'chaos:tenant%1';
const AGENTS = ['agent:1', 'agent%2', 'agent-3'];
/** Steps published before the kill, and after the restart (each an action and its result). */
const BEFORE = 8;
const AFTER = 22;

const stepsOf = (from: number, to: number) => sameSearchLoop(TENANT, AGENTS, from, to);

describe('chaos: the one-pass navigator killed in the middle of its ladders', () => {
  const prefix = `${uniqueTestName('chaos-nav')}.`;
  const env = { WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_PROFILE: 'balanced', WAYFINDER_PIPELINE: 'one-pass' };
  let brokers: string[];
  let bus: KafkaBus;
  let navigator: ServiceProcess | undefined;
  const seen: Correction[] = [];

  beforeAll(async () => {
    brokers = await requireKafka();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
    bus = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'chaos-nav-test' });
    bus.subscribe('wayfinder.corrections.v1', async (batch) => void seen.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
    await bus.start();
  });

  afterAll(async () => {
    if (navigator) await stopServiceProcess(navigator);
    await bus?.stop();
    if (brokers) await deleteTestTopics(brokers, prefix);
  });

  it('resumes every ladder where it was: the corrections of a navigator that never stopped', async () => {
    // One Navigator that never stops, fed the same steps in the same order (what `wayfinder replay` runs).
    const reference = createNavigator({ policy: resolvePolicy({ profile: 'balanced' }) });
    const expected = new Map<string, Correction>();
    const beforeKill = new Set<string>();
    for (const step of stepsOf(0, BEFORE)) for (const c of reference.onStep(step).corrections) {
      expected.set(c.eventId, c);
      beforeKill.add(c.eventId);
    }
    for (const step of stepsOf(BEFORE, BEFORE + AFTER)) for (const c of reference.onStep(step).corrections) expected.set(c.eventId, c);
    // The input climbs: a correction for every agent before the kill, and more after it.
    expect(AGENTS.every((a) => [...expected.values()].some((c) => c.agentId === a && beforeKill.has(c.eventId)))).toBe(true);
    expect(expected.size).toBeGreaterThan(beforeKill.size);

    navigator = startServiceProcess('navigator', env, 'chaos-nav-1');
    await navigator.ready;
    await bus.publish('wayfinder.steps.v1', stepsOf(0, BEFORE));
    await until(() => [...beforeKill].every((id) => seen.some((c) => c.eventId === id)), 60_000, 'the corrections before the kill');

    navigator.child.kill('SIGKILL');
    await navigator.exited;
    navigator = startServiceProcess('navigator', env, 'chaos-nav-2');
    await navigator.ready;
    await bus.publish('wayfinder.steps.v1', stepsOf(BEFORE, BEFORE + AFTER));
    await until(() => [...expected.keys()].every((id) => seen.some((c) => c.eventId === id)), 60_000, 'every correction after the restart');
    await new Promise((r) => setTimeout(r, 2_000)); // nothing more arrives

    const distinct = new Map(seen.map((c) => [c.eventId, c]));
    chaosFigures('navigator SIGKILL mid-ladder', {
      sent: AGENTS.length * (BEFORE + AFTER),
      processed: distinct.size,
      duplicated: seen.length - distinct.size,
      lost: [...expected.keys()].filter((id) => !distinct.has(id)).length,
      deadLettered: 0,
    });
    expect([...distinct.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [id, c] of distinct) expect({ id, action: c.action, severity: c.severity, atSeq: c.atSeq }).toEqual({ id, action: expected.get(id)!.action, severity: expected.get(id)!.severity, atSeq: expected.get(id)!.atSeq });
  });
});
