// createTopics on the real broker: creates every topic with its configuration, and is idempotent.
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { TOPIC_NAMES } from '@wayfinder/contracts';
// Tests of a platform lib may use the infra helpers of libs/testing, which platform code may not import.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { deleteTestTopics, kafkaBrokers, requireKafka, uniqueTestName } from '../../../testing/src/infra/kafka';
import { createTopics } from './topic-admin';

describe('createTopics on Kafka', () => {
  it('creates every topic and DLQ with compaction where the registry says so, and leaves existing ones alone', async () => {
    const brokers = await requireKafka(kafkaBrokers());
    const topicPrefix = `${uniqueTestName('admin')}.`;

    const first = await createTopics(brokers, { topicPrefix, partitionsOverride: 1 });
    const second = await createTopics(brokers, { topicPrefix, partitionsOverride: 1 });

    expect(first.created).toHaveLength(TOPIC_NAMES.length * 2);
    expect(first.existing).toEqual([]);
    expect(second.created).toEqual([]);
    expect(second.existing.sort()).toEqual(first.created.sort());

    const admin = new Kafka({ clientId: 'topic-admin-test', brokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: ['wayfinder.maps.v1', 'wayfinder.steps.v1'].map((name) => ({
          type: ConfigResourceTypes.TOPIC,
          name: topicPrefix + name,
          configNames: ['cleanup.policy', 'retention.ms'],
        })),
      });
      const config = (name: string, key: string) =>
        resources.find((r) => r.resourceName === topicPrefix + name)?.configEntries.find((e) => e.configName === key)?.configValue;
      expect(config('wayfinder.maps.v1', 'cleanup.policy')).toBe('compact');
      expect(config('wayfinder.steps.v1', 'cleanup.policy')).toBe('delete');
      expect(config('wayfinder.steps.v1', 'retention.ms')).toBe(String(3 * 24 * 60 * 60 * 1000));
    } finally {
      await admin.disconnect();
      await deleteTestTopics(brokers, topicPrefix);
    }
  });
});
