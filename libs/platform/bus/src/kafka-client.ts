/**
 * Which Kafka client library carries the Bus (WAYFINDER_KAFKA_CLIENT, issue #17): KafkaBus on kafkajs,
 * the default, or PlatformaticBus on @platformatic/kafka. Both take the same options and pass the same
 * contract suite, so the services do not know which one they run on.
 */
import type { Bus } from './bus';
import { KafkaBus, type KafkaBusOptions } from './kafka.bus';
import { PlatformaticBus } from './platformatic.bus';

export type KafkaClientName = 'kafkajs' | 'platformatic';

export function createKafkaBus(client: KafkaClientName, options: KafkaBusOptions): Bus {
  if (client === 'platformatic') {
    const { logLevel: _kafkajsOnly, ...rest } = options;
    return new PlatformaticBus(rest);
  }
  return new KafkaBus(options);
}
