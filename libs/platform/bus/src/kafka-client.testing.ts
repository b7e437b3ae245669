/**
 * The Kafka client the bus's broker tests run on: WAYFINDER_KAFKA_CLIENT as the services read it
 * (@wayfinder/config), kafkajs when unset, so `WAYFINDER_KAFKA_CLIENT=platformatic npx jest …` runs the
 * same tests on PlatformaticBus. Tests only.
 */
import type { KafkaClientName } from './kafka-client';

export function testKafkaClient(env: NodeJS.ProcessEnv = process.env): KafkaClientName {
  const client = env['WAYFINDER_KAFKA_CLIENT'] ?? 'kafkajs';
  if (client !== 'kafkajs' && client !== 'platformatic') throw new Error(`WAYFINDER_KAFKA_CLIENT must be kafkajs or platformatic, got '${client}'`);
  return client;
}
