/**
 * Issue #28: a deployment that switches from the stage services (WAYFINDER_PIPELINE=separate) to the
 * one-pass navigator keeps every agent's detectors and ladder. The navigator has no navigation document
 * for these agents yet, so it composes one from the documents the state-localizer, detector worker and
 * correction engine of this build wrote to Redis (stage-documents.ts): the ladders go on where they were,
 * and the corrections of both phases are exactly those of one Navigator fed every step (ids included).
 */
import type { Correction } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { resolvePolicy } from '@wayfinder/detection';
import { createNavigator } from '@wayfinder/navigation';
import { deleteTestTopics, requireKafka, uniqueTestName, until } from '@wayfinder/testing';
import { startServices } from './runtime';
import { sameSearchLoop } from './same-search-loop.testing';

const TENANT = 'switch';
const AGENTS = ['agent-1', 'agent-2', 'agent-3'];
/** Steps before the switch (through the stage services) and after it (through the navigator). */
const BEFORE = 8;
const AFTER = 22;

const stepsOf = (from: number, to: number) => sameSearchLoop(TENANT, AGENTS, from, to);

describe('switching from the stage services to the one-pass navigator', () => {
  it("keeps every agent's ladder: the corrections of one Navigator fed every step", async () => {
    const brokers = await requireKafka();
    const prefix = `${uniqueTestName('switch')}.`;
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
    const reference = createNavigator({ policy: resolvePolicy({ profile: 'balanced' }) });
    const expected = new Map<string, Correction>();
    const beforeSwitch = new Set<string>();
    for (const step of stepsOf(0, BEFORE)) for (const c of reference.onStep(step).corrections) {
      expected.set(c.eventId, c);
      beforeSwitch.add(c.eventId);
    }
    for (const step of stepsOf(BEFORE, BEFORE + AFTER)) for (const c of reference.onStep(step).corrections) expected.set(c.eventId, c);
    // The ladders are mid-way at the switch: a correction for each agent before it, more after it.
    expect(AGENTS.every((a) => [...beforeSwitch].some((id) => expected.get(id)?.agentId === a))).toBe(true);
    expect(expected.size).toBeGreaterThan(beforeSwitch.size);

    const seen: Correction[] = [];
    const observer = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'switch-observer' });
    observer.subscribe('wayfinder.corrections.v1', async (batch) => void seen.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
    await observer.start();
    const env = { WAYFINDER_MODE: 'distributed', WAYFINDER_KAFKA_BROKERS: brokers.join(','), WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_PROFILE: 'balanced', WAYFINDER_SERVICES: 'navigator' };
    try {
      const stages = await startServices(loadConfig({ ...env, WAYFINDER_PIPELINE: 'separate' }), { logger: false });
      try {
        await stages.bus.publish('wayfinder.steps.v1', stepsOf(0, BEFORE));
        await until(() => [...beforeSwitch].every((id) => seen.some((c) => c.eventId === id)), 60_000, 'the corrections before the switch');
      } finally {
        await stages.stop(); // the stage documents are in Redis, the offsets committed
      }
      const onePass = await startServices(loadConfig({ ...env, WAYFINDER_PIPELINE: 'one-pass' }), { logger: false });
      try {
        await onePass.bus.publish('wayfinder.steps.v1', stepsOf(BEFORE, BEFORE + AFTER));
        await until(() => [...expected.keys()].every((id) => seen.some((c) => c.eventId === id)), 60_000, 'every correction after the switch');
        await new Promise((r) => setTimeout(r, 2_000)); // nothing more arrives
      } finally {
        await onePass.stop();
      }
    } finally {
      await observer.stop();
      await deleteTestTopics(brokers, prefix);
    }
    const distinct = new Map(seen.map((c) => [c.eventId, c]));
    expect([...distinct.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [id, c] of distinct) expect({ id, action: c.action, atSeq: c.atSeq }).toEqual({ id, action: expected.get(id)!.action, atSeq: expected.get(id)!.atSeq });
  }, 180_000);
});
