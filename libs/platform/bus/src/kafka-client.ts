/**
 * Which Kafka client library carries the Bus (WAYFINDER_KAFKA_CLIENT, issue #17): KafkaBus on kafkajs,
 * the default, or PlatformaticBus on @platformatic/kafka. Both take the same options and pass the same
 * contract suite, so the services do not know which one they run on.
 */
import type { Bus } from './bus';
import { KafkaBus, type KafkaBusOptions } from './kafka.bus';
import { PlatformaticBus } from './platformatic.bus';

export type KafkaClientName = 'kafkajs' | 'platformatic';

/** A Bus on Kafka: both adapters tell their consumer groups' assignments (Bus.onAssignment). */
export type KafkaBusLike = Bus & Required<Pick<Bus, 'onAssignment'>>;

export function createKafkaBus(client: KafkaClientName, options: KafkaBusOptions): KafkaBusLike {
  if (client === 'platformatic') {
    const { logLevel: _kafkajsOnly, ...rest } = options;
    return new PlatformaticBus(rest);
  }
  return new KafkaBus(options);
}
