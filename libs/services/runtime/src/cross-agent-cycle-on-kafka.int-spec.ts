/**
 * cross_agent_cycle distributed on the real Kafka broker and Redis, with two instances of the one-pass
 * navigator or of the detector worker: two agents of a tenant delegating to each other land on different
 * partitions, their delegation signals meet on wayfinder.delegations.v1 (keyed by tenant, so one instance
 * holds the tenant's graph), and both agents get the deviation — one pass, a correction from the ladder of
 * the navigator that owns each agent.
 */
import type { Correction, Deviation } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import { delegationRounds, requireKafka, uniqueTestName, until } from '@wayfinder/testing';
import { startServices, type RunningServices } from './runtime';

const LAYOUTS = {
  // Two navigators: the cycle goes through the tenant's one graph, and back to the ladder of each agent's owner.
  'one-pass': ['task-parser,navigator', 'navigator'],
  // Two detector workers (the stage services).
  separate: ['task-parser,state-localizer,detector-worker', 'detector-worker'],
} as const;

describe.each(Object.entries(LAYOUTS))('cross_agent_cycle on Kafka with two instances (%s)', (pipeline, services) => {
  const prefix = `${uniqueTestName(`cycles-${pipeline}`)}.`;
  let running: RunningServices[] = [];
  let observer: KafkaBus;
  const deviations: Deviation[] = [];
  const corrections: Correction[] = [];

  beforeAll(async () => {
    const brokers = await requireKafka();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
    observer = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'observer' });
    observer.subscribe('wayfinder.deviations.v1', async (batch) => void deviations.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
    observer.subscribe('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch.map((d) => d.payload)), { groupId: 'observer' });
    await observer.start();
    const env = { WAYFINDER_MODE: 'distributed', WAYFINDER_PIPELINE: pipeline, WAYFINDER_KAFKA_BROKERS: brokers.join(','), WAYFINDER_TOPIC_PREFIX: prefix };
    running = [];
    for (const s of services) running.push(await startServices(loadConfig(env, { services: s }), { logger: false }));
  });

  afterAll(async () => {
    for (const r of running) await r.stop();
    await observer?.stop();
  });

  it('gives both agents of the cycle cross_agent_cycle, once each', async () => {
    const ping: Array<[string, string]> = [['planner', 'researcher'], ['researcher', 'planner'], ['planner', 'researcher'], ['researcher', 'planner']];
    await running[0].bus.publish('wayfinder.steps.v1', delegationRounds('acme', ping));
    await until(() => deviations.filter((d) => d.detector === 'cross_agent_cycle').length >= 2, 60_000, 'both cycle deviations');
    const cycle = deviations.filter((d) => d.detector === 'cross_agent_cycle');
    expect(cycle.map((d) => d.agentId).sort()).toEqual(['planner', 'researcher']);
    expect(cycle[0].evidence['cycle']).toEqual(['researcher', 'planner', 'researcher']);
    if (pipeline === 'one-pass') {
      // The navigator owning each agent puts the graph's deviation on its ladder.
      const ids = new Set(cycle.map((d) => d.eventId));
      await until(() => new Set(corrections.filter((c) => c.deviationIds.some((id) => ids.has(id))).map((c) => c.agentId)).size === 2, 60_000, 'a correction for each agent');
      await new Promise((r) => setTimeout(r, 1_000));
      expect(deviations.filter((d) => d.detector === 'cross_agent_cycle')).toHaveLength(2);
    }
  });
});
