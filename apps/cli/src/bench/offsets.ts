/**
 * What the Kafka benchmarks read from the broker to know how far the pipeline got: how many messages a
 * group has committed on a topic, and how many the topic holds.
 */
import { Kafka, logLevel, type Admin } from 'kafkajs';

export function benchAdmin(brokers: readonly string[]): Admin {
  return new Kafka({ clientId: 'bench-admin', brokers: [...brokers], logLevel: logLevel.NOTHING }).admin();
}

/** Messages of `topic` the group has committed past, over all partitions (names as on the broker). */
export async function committedCount(admin: Admin, groupId: string, topic: string): Promise<number> {
  const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return offsets.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
}

/** Messages the topic holds, over all partitions. */
export async function endCount(admin: Admin, topic: string): Promise<number> {
  const ends = await admin.fetchTopicOffsets(topic);
  return ends.reduce((sum, p) => sum + Number(p.high), 0);
}
