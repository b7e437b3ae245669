// Runs the Bus contract on the real Kafka broker of deploy/local with the @platformatic/kafka adapter,
// as kafka.bus.int-spec.ts does with kafkajs; each case gets its own topic prefix.
// Tests of a platform lib may use the infra helpers of libs/testing, which platform code may not import.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { deleteTestTopics, kafkaBrokers, requireKafka, uniqueTestName } from '../../../testing/src/infra/kafka';
import { busContract } from './bus.contract';
import { PlatformaticBus } from './platformatic.bus';
import { createTopics } from './topic-admin';

const brokers = kafkaBrokers();

const prefixes: string[] = [];

beforeAll(async () => {
  await requireKafka(brokers);
});

afterAll(async () => {
  for (const prefix of prefixes) await deleteTestTopics(brokers, prefix);
});

busContract('PlatformaticBus', () => ({
  waitMs: 30_000,
  newSpace: async () => {
    const topicPrefix = `${uniqueTestName('contract-pk')}.`;
    prefixes.push(topicPrefix);
    await createTopics(brokers, { topicPrefix, only: ['wayfinder.steps.v1'], partitionsOverride: 3 });
    return topicPrefix;
  },
  open: (topicPrefix) =>
    new PlatformaticBus({ brokers, topicPrefix, clientId: 'bus-contract', retry: { maxAttempts: 3, initialBackoffMs: 20, maxBackoffMs: 100 } }),
}));
