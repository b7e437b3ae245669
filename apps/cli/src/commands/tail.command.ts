/**
 * `wayfinder tail deviations|corrections|escalations|would-send [--agent A] --key KEY`: follows a
 * navigation topic on Kafka, one JSON line per event of the key's tenant (resolved like the gateway
 * resolves it: a key reads its own tenant only, as on every other door), from now on, in a consumer group
 * of its own that commits nothing anyone else reads.
 */
import { randomBytes } from 'node:crypto';
import type { TopicName } from '@wayfinder/contracts';
import { KafkaBus } from '@wayfinder/bus';
import { ConfigError, kafkaSecurity, loadConfig } from '@wayfinder/config';
import { assertKafkaAnswers } from '../operator/kafka-probe';
import { keyOption, resolveKeyTenant } from '../operator/key-tenant';
import { parseCommandArgs } from '../args';
import { UsageError, type Command, type CommandIo } from '../command';
import { tailHelp } from './tail.help';

const TOPICS: Record<string, TopicName> = {
  deviations: 'wayfinder.deviations.v1',
  corrections: 'wayfinder.corrections.v1',
  escalations: 'wayfinder.escalations.v1',
  'would-send': 'wayfinder.would-send.v1',
};

export const tailCommand: Command = {
  ...tailHelp,
  async run(argv: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, {
      tenant: { type: 'string' }, agent: { type: 'string' }, key: { type: 'string' }, kafka: { type: 'string' }, redis: { type: 'string' },
    });
    const topic = TOPICS[positionals[0] ?? ''];
    if (!topic || positionals.length > 1) throw new UsageError(`expected one of ${Object.keys(TOPICS).join(', ')}, got '${positionals.join(' ') || '(nothing)'}'`);
    const key = keyOption(values.key as string | undefined);
    let config;
    try {
      config = loadConfig(process.env, { mode: 'distributed', kafka: values.kafka as string | undefined, redis: values.redis as string | undefined });
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    const resolved = await resolveKeyTenant(config, key);
    await resolved.close();
    const tenant = resolved.tenant.tenantId;
    if (values.tenant !== undefined && values.tenant !== tenant) throw new Error(`this key belongs to another tenant than ${values.tenant as string}`);
    const agent = values.agent as string | undefined;
    const security = kafkaSecurity(config);
    await assertKafkaAnswers(config.kafkaBrokers, security, `${config.kafkaClientId}-tail`);
    // The client's own lines (one per retry) are not printed: a broker lost while following ends the
    // command with one line naming the last error, when kafkajs gives up.
    let lastKafkaError: string | undefined;
    let fatal!: (error: Error) => void;
    const failed = new Promise<Error>((resolve) => (fatal = resolve));
    const bus = new KafkaBus({
      brokers: config.kafkaBrokers,
      security,
      clientId: `${config.kafkaClientId}-tail`,
      topicPrefix: config.topicPrefix,
      log: (level, message) => {
        if (level === 'error') lastKafkaError = message;
      },
      onFatal: (error) => fatal(error),
    });
    bus.subscribe(
      topic,
      async (batch) => {
        for (const { payload } of batch) {
          const event = payload as { tenantId: string; agentId?: string };
          if (event.tenantId !== tenant) continue;
          if (agent !== undefined && event.agentId !== agent) continue;
          io.stdout.write(JSON.stringify(payload) + '\n');
        }
      },
      { groupId: `${config.groupPrefix}.tail-${randomBytes(4).toString('hex')}`, fromBeginning: false },
    );
    const kafkaAt = config.kafkaBrokers.join(',');
    await bus.start().catch((error: Error) => {
      throw new Error(`Kafka at ${kafkaAt}: ${error.message}${lastKafkaError ? ` (${lastKafkaError})` : ''}`);
    });
    let onSignal!: () => void;
    const stopped = new Promise<void>((resolve) => (onSignal = resolve));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const lost = await Promise.race([stopped.then(() => undefined), failed]);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await bus.stop().catch(() => undefined);
    if (lost) throw new Error(`Kafka at ${kafkaAt} was lost: ${lost.message}`);
    return 0;
  },
};
