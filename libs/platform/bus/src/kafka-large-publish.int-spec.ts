// One publish call larger than a Kafka request may be (2.4 MB to one partition) is cut into requests
// and arrives complete and in order.
import { type StepEvent } from '@wayfinder/contracts';
// Tests of a platform lib may use the infra helpers of libs/testing, which platform code may not import.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { deleteTestTopics, kafkaBrokers, kafkaClientUnderTest, requireKafka, uniqueTestName } from '../../../testing/src/infra/kafka';
import { stepEvent, waitFor } from './bus.contract';
import type { Bus } from './bus';
import { createKafkaBus } from './kafka-client';
import { createTopics } from './topic-admin';

describe(`Kafka bus (${kafkaClientUnderTest()}) publishing one very large batch`, () => {
  let bus: Bus | undefined;
  const topicPrefix = `${uniqueTestName('large')}.`;
  afterAll(async () => {
    await bus?.stop();
    await deleteTestTopics(kafkaBrokers(), topicPrefix);
  });

  it('delivers 4,000 events of 600 bytes published in one call, in order', async () => {
    const brokers = await requireKafka(kafkaBrokers());
    await createTopics(brokers, { topicPrefix, only: ['wayfinder.steps.v1'], partitionsOverride: 1 });
    bus = createKafkaBus(kafkaClientUnderTest(), { brokers, topicPrefix });
    const seqs: number[] = [];
    bus.subscribe('wayfinder.steps.v1', async (batch) => void seqs.push(...batch.map((d) => d.payload.seq)), { groupId: 'large' });
    await bus.start();

    const events: StepEvent[] = Array.from({ length: 4_000 }, (_, seq) => ({
      ...stepEvent('a1', seq),
      kind: 'action',
      action: { tool: 'write', args: { text: 'x'.repeat(600) } },
    }));
    await bus.publish('wayfinder.steps.v1', events);
    await waitFor(() => seqs.length >= 4_000, 60_000, '4,000 deliveries');

    expect(seqs).toEqual(Array.from({ length: 4_000 }, (_, seq) => seq));
  });
});
