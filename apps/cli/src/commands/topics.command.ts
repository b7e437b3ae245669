/** `wayfinder topics create`: creates every topic and its DLQ explicitly (STYLE: never auto-creation). */
import { createTopics } from '@wayfinder/bus';
import { ConfigError, kafkaSecurity, loadConfig, type KafkaSecurity } from '@wayfinder/config';
import { intOption, parseCommandArgs } from '../args';
import { UsageError, type Command, type CommandIo } from '../command';
import { topicsHelp } from './topics.help';

export const topicsCommand: Command = {
  ...topicsHelp,
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
