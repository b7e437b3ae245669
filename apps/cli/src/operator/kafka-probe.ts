/**
 * Before a CLI command reads or follows Kafka (`tail`, `dlq`), one quick question to the brokers: a
 * cluster that does not answer is one line naming it, within seconds, instead of a client that logs each
 * of its retries for a minute.
 */
import { Kafka, logLevel, type KafkaConfig } from 'kafkajs';
import type { KafkaSecurity } from '@wayfinder/config';

/** Resolves when a broker of `brokers` answers (metadata); rejects with `Kafka at … does not answer: …`. */
export async function assertKafkaAnswers(brokers: readonly string[], security: KafkaSecurity, clientId: string): Promise<void> {
  const kafka = new Kafka({ clientId, brokers: [...brokers], ...(security as Pick<KafkaConfig, 'ssl' | 'sasl'>), logLevel: logLevel.NOTHING, connectionTimeout: 3_000, requestTimeout: 5_000, retry: { retries: 1, initialRetryTime: 300 } });
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.describeCluster();
  } catch (error) {
    throw new Error(`Kafka at ${brokers.join(',')} does not answer: ${(error as Error).message}`);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
