/**
 * `wayfinder tail deviations|corrections|escalations|would-send [--agent A] --key KEY`: follows a
 * navigation topic on Kafka, one JSON line per event of the key's tenant (resolved like the gateway
 * resolves it: a key reads its own tenant only, as on every other door), from now on, in a consumer group
 * of its own that commits nothing anyone else reads. Without Kafka configured (no `--kafka`, `--redis`,
 * WAYFINDER_KAFKA_BROKERS or WAYFINDER_MODE=distributed), or with `--gateway`, it follows the gateway's
 * fleet stream instead (gateway-tail.ts): the embedded quick start has no Kafka to follow.
 */
import { randomBytes } from 'node:crypto';
import type { TopicName } from '@wayfinder/contracts';
import { KafkaBus } from '@wayfinder/bus';
import { ConfigError, kafkaSecurity, loadConfig } from '@wayfinder/config';
import { gatewayTarget } from '../operator/gateway-client';
import { tailThroughGateway } from '../operator/gateway-tail';
import { assertKafkaAnswers } from '../operator/kafka-probe';
import { keyOption, resolveKeyTenant } from '../operator/key-tenant';
import { parseCommandArgs } from '../args';
import { UsageError, type Command, type CommandIo } from '../command';
import { tailHelp } from './tail.help';

/** The history record kind the gateway's fleet stream carries for each topic. */
const RECORD_KINDS: Record<string, string> = { deviations: 'deviation', corrections: 'correction', escalations: 'escalation', 'would-send': 'would-send' };

/** Kafka is configured: named on the command line or in the environment. */
function kafkaConfigured(values: Record<string, unknown>, env: NodeJS.ProcessEnv): boolean {
  return values.kafka !== undefined || values.redis !== undefined || (env.WAYFINDER_KAFKA_BROKERS ?? '') !== '' || env.WAYFINDER_MODE === 'distributed';
}

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
      tenant: { type: 'string' }, agent: { type: 'string' }, key: { type: 'string' }, kafka: { type: 'string' }, redis: { type: 'string' }, gateway: { type: 'string' },
    });
    const topic = TOPICS[positionals[0] ?? ''];
    if (!topic || positionals.length > 1) throw new UsageError(`expected one of ${Object.keys(TOPICS).join(', ')}, got '${positionals.join(' ') || '(nothing)'}'`);
    if (values.gateway !== undefined && (values.kafka !== undefined || values.redis !== undefined)) throw new UsageError('--gateway follows the gateway; --kafka and --redis follow Kafka: give one or the other');
    if (values.gateway !== undefined || !kafkaConfigured(values, process.env)) {
      const target = gatewayTarget({ gateway: values.gateway as string | undefined, key: values.key as string | undefined });
      let onSignal!: () => void;
      const stopped = new Promise<void>((resolve) => (onSignal = resolve));
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        await tailThroughGateway({ target, kind: RECORD_KINDS[positionals[0]], agent: values.agent as string | undefined, tenant: values.tenant as string | undefined }, io, stopped);
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      return 0;
    }
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
