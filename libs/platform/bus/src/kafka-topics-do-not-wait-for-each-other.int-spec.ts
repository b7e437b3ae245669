// Issue #17: a publish to one topic does not wait behind another topic's produce requests. A correction
// published while a 2.4 MB publish of steps is on its way (five requests of at most 512 KB, one in
// flight at a time) is acknowledged first; with one producer for every topic it went out only after the
// steps' requests ahead of it. Both still arrive, the steps in order. On both Kafka clients.
import { type StepEvent } from '@wayfinder/contracts';
// Tests of a platform lib may use the infra helpers of libs/testing, which platform code may not import.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { deleteTestTopics, kafkaBrokers, requireKafka, uniqueTestName } from '../../../testing/src/infra/kafka';
import { stepEvent, waitFor } from './bus.contract';
import type { Bus } from './bus';
import { createKafkaBus } from './kafka-client';
import { createTopics } from './topic-admin';

describe.each(['kafkajs', 'platformatic'] as const)('Kafka bus (%s): topics do not wait for each other', (client) => {
  let bus: Bus | undefined;
  let declared: Bus | undefined;
  const topicPrefix = `${uniqueTestName(`lanes-${client}`)}.`;
  afterAll(async () => {
    await bus?.stop();
    await declared?.stop();
    await deleteTestTopics(kafkaBrokers(), topicPrefix);
  });

  it('acknowledges a small publish to another topic before a large publish queued ahead of it', async () => {
    const brokers = await requireKafka(kafkaBrokers());
    await createTopics(brokers, { topicPrefix, only: ['wayfinder.steps.v1', 'wayfinder.corrections.v1'], partitionsOverride: 1 });
    bus = createKafkaBus(client, { brokers, topicPrefix });
    const seqs: number[] = [];
    const corrections: string[] = [];
    bus.subscribe('wayfinder.steps.v1', async (batch) => void seqs.push(...batch.map((d) => d.payload.seq)), { groupId: 'lanes' });
    bus.subscribeRaw('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch.map((d) => d.payload.toString('utf8'))), { groupId: 'lanes-raw' });
    await bus.start();
    // Both topics' producers connected first, so that the race below is between requests, not connects.
    await bus.publish('wayfinder.steps.v1', [stepEvent('warm', 0)]);
    await bus.publishRaw('wayfinder.corrections.v1', 'warm', 'warm');

    const events: StepEvent[] = Array.from({ length: 4_000 }, (_, seq) => ({
      ...stepEvent('a1', seq),
      kind: 'action',
      action: { tool: 'write', args: { text: 'x'.repeat(600) } },
    }));
    const acknowledged: string[] = [];
    const steps = bus.publish('wayfinder.steps.v1', events).then(() => acknowledged.push('steps'));
    await new Promise((resolve) => setImmediate(resolve));
    const correction = bus.publishRaw('wayfinder.corrections.v1', 'a1', 'correction').then(() => acknowledged.push('correction'));
    await Promise.all([steps, correction]);

    expect(acknowledged).toEqual(['correction', 'steps']);
    await waitFor(() => seqs.length >= 4_001 && corrections.length >= 2, 60_000, 'every step and both corrections');
    expect(seqs.filter((_, i) => i > 0)).toEqual(Array.from({ length: 4_000 }, (_, seq) => seq));
    expect(corrections).toEqual(['warm', 'correction']);
  });

  it('connects the producers of the topics it is told it publishes at start, and keeps a spare for any other', async () => {
    const brokers = await requireKafka(kafkaBrokers());
    await createTopics(brokers, { topicPrefix, only: ['wayfinder.steps.v1', 'wayfinder.corrections.v1'], partitionsOverride: 1 });
    declared = createKafkaBus(client, { brokers, topicPrefix, publishes: ['wayfinder.corrections.v1'] });
    await declared.start();
    // Producers made after start(): the corrections lane has one already; a new topic takes the spare and a new spare is made.
    const made = jest.spyOn(declared as unknown as Record<string, () => unknown>, client === 'kafkajs' ? 'connectProducer' : 'newProducer');
    await declared.publishRaw('wayfinder.corrections.v1', 'a1', 'first correction');
    expect(made).toHaveBeenCalledTimes(0);
    await declared.publish('wayfinder.steps.v1', [stepEvent('a1', 0)]);
    expect(made).toHaveBeenCalledTimes(1);
    await declared.publishRaw('wayfinder.corrections.v1', 'a1', 'second correction');
    expect(made).toHaveBeenCalledTimes(1);
  });
});
