/** `wayfinder topics create`: creates every topic and its DLQ explicitly (STYLE: never auto-creation). */
import { createTopics } from '@wayfinder/bus';
import { ConfigError, kafkaSecurity, loadConfig, type KafkaSecurity } from '@wayfinder/config';
import { intOption, parseCommandArgs } from '../args';
import { UsageError, type Command, type CommandIo } from '../command';

const USAGE = `usage: wayfinder topics create [--kafka BROKERS] [--partitions N]

Creates every Wayfinder topic (partitions, compaction, retention) and its <topic>.dlq on the cluster.
Existing topics are left as they are, so running it twice is fine.
  --kafka       bootstrap brokers host:port[,host:port] (env WAYFINDER_KAFKA_BROKERS, default 127.0.0.1:9092)
  --partitions  override the partition count of the per-agent topics (e.g. 1 on a laptop)
Names get the WAYFINDER_TOPIC_PREFIX in front, as the services use them.`;

export const topicsCommand: Command = {
  name: 'topics',
  summary: 'create the topics on a Kafka cluster (topics create)',
  usage: USAGE,
  async run(argv: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, { kafka: { type: 'string' }, partitions: { type: 'string' } });
    if (positionals[0] !== 'create' || positionals.length > 1) throw new UsageError(`expected 'topics create', got '${positionals.join(' ') || '(nothing)'}'`);
    let brokers: string[];
    let security: KafkaSecurity = {};
    let topicPrefix = '';
    try {
      const config = loadConfig(process.env, { kafka: values.kafka as string | undefined });
      brokers = config.kafkaBrokers;
      security = kafkaSecurity(config);
      topicPrefix = config.topicPrefix;
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    const partitions = values.partitions === undefined ? undefined : intOption(values.partitions as string, 'partitions', 1);
    const result = await createTopics(brokers, { security, ...(partitions && { partitionsOverride: partitions }), ...(topicPrefix && { topicPrefix }) });
    io.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  },
};
