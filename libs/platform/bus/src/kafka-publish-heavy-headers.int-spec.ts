// Dead letters carry kilobytes of headers each (the error, the source, the original headers). Thousands of
// them published at once must still be cut into requests the broker accepts: request sizes count headers.
// (Found by the fuzz chaos test: the DLQ writes of one batch made a 3 MB request the broker refused.)
// Tests of a platform lib may use the infra helpers of libs/testing, which platform code may not import.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { deleteTestTopics, kafkaBrokers, kafkaClientUnderTest, requireKafka, uniqueTestName } from '../../../testing/src/infra/kafka';
import { waitFor } from './bus.contract';
import type { Bus } from './bus';
import { createKafkaBus } from './kafka-client';
import { createTopics } from './topic-admin';

describe(`Kafka bus (${kafkaClientUnderTest()}) publishing many messages with heavy headers`, () => {
  let bus: Bus | undefined;
  const topicPrefix = `${uniqueTestName('headers')}.`;
  afterAll(async () => {
    await bus?.stop();
    await deleteTestTopics(kafkaBrokers(), topicPrefix);
  });

  it('delivers 3,000 small messages with 1.5 KB of headers each, published at once', async () => {
    const brokers = await requireKafka(kafkaBrokers());
    await createTopics(brokers, { topicPrefix, only: ['wayfinder.steps.v1'], partitionsOverride: 1 });
    bus = createKafkaBus(kafkaClientUnderTest(), { brokers, topicPrefix });
    let received = 0;
    bus.subscribeRaw('wayfinder.steps.v1.dlq', async (batch) => void (received += batch.length), { groupId: 'headers' });
    await bus.start();
    const error = 'schema violation: '.padEnd(1_500, 'x');
    await Promise.all(Array.from({ length: 3_000 }, (_, i) => bus!.publishRaw('wayfinder.steps.v1.dlq', 'k', `{"i":${i}}`, { 'wf-dlq-error': error })));
    await waitFor(() => received >= 3_000, 60_000, '3,000 deliveries');
    expect(received).toBe(3_000);
  });
});
