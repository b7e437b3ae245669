/**
 * `wayfinder dlq list|replay TOPIC [--since ISO|DURATION]` (DESIGN §13): the dead letters of the key's
 * tenant on `<TOPIC>.dlq`, read from Kafka directly (the gateway holds no DLQ). `list` shows each one's
 * source topic/partition/offset, error, attempts and time; `replay` re-publishes each not yet replayed
 * one to TOPIC with its original key and bytes (same eventId: consumers are idempotent, so it is
 * processed once), then marks it replayed in Redis, so a second replay sends nothing. A record whose bytes
 * still fail TOPIC's schema is not re-sent (it would only come back). The key (`--key`/WAYFINDER_KEY) is
 * resolved like the gateway does (WAYFINDER_API_KEYS, then the Redis key store): only its tenant's dead
 * letters are shown or replayed; replay needs an operator key.
 */
import { TOPIC_NAMES, dlqTopicOf, type TopicName } from '@wayfinder/contracts';
import { DLQ_RETENTION_MS, KafkaBus, decodePayload, readDeadLetters, replayHeaders, type DeadLetterRecord } from '@wayfinder/bus';
import { ConfigError, kafkaSecurity, loadConfig, type WayfinderConfig } from '@wayfinder/config';
import { RedisReplayMarks } from '@wayfinder/redis';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { intOption, parseCommandArgs } from '../args';
import { UsageError, type Command, type CommandIo } from '../command';
import { assertKafkaAnswers } from '../operator/kafka-probe';
import { keyOption, resolveKeyTenant } from '../operator/key-tenant';
import { progressOn } from '../progress';
import { dlqHelp } from './dlq.help';

const DURATION = /^(\d+)(s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: an ISO time or a duration back from `now`; ms since the epoch. */
export function sinceOption(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const duration = DURATION.exec(value);
  if (duration) return now - Number(duration[1]) * UNIT_MS[duration[2]];
  const t = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(t)) throw new UsageError(`--since must be an ISO time (2026-12-01T10:00:00Z) or a duration (90s, 30m, 2h, 7d), got '${value}'`);
  return t;
}

function topicOption(value: string | undefined): TopicName {
  if (value === undefined) throw new UsageError('a TOPIC is required (like wayfinder.steps.v1)');
  const name = value.endsWith('.dlq') ? value.slice(0, -'.dlq'.length) : value;
  if (!(TOPIC_NAMES as readonly string[]).includes(name)) throw new UsageError(`unknown topic '${value}' (one of ${TOPIC_NAMES.join(', ')})`);
  return name as TopicName;
}

export const dlqCommand: Command = {
  ...dlqHelp,
  async run(argv: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseCommandArgs(argv, {
      since: { type: 'string' }, limit: { type: 'string' }, format: { type: 'string' }, key: { type: 'string' }, kafka: { type: 'string' }, redis: { type: 'string' },
    });
    const [action, topicArg, ...rest] = positionals;
    if (action !== 'list' && action !== 'replay') throw new UsageError(`expected 'dlq list TOPIC' or 'dlq replay TOPIC', got '${positionals.join(' ') || '(nothing)'}'`);
    const topic = topicOption(topicArg);
    if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
    const sinceMs = sinceOption(values.since);
    if (action === 'replay' && (values.limit !== undefined || values.format !== undefined)) throw new UsageError('--limit and --format apply to list only');
    const limit = intOption(values.limit, 'limit', 100);
    const format = values.format ?? 'table';
    if (format !== 'table' && format !== 'jsonl') throw new UsageError(`--format must be table or jsonl, got '${format}'`);
    const key = keyOption(values.key);
    let config: WayfinderConfig;
    try {
      config = loadConfig(process.env, { mode: 'distributed', kafka: values.kafka, redis: values.redis });
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }

    const { tenant, redis, close } = await resolveKeyTenant(config, key);
    try {
      if (action === 'replay' && tenant.role !== 'operator') throw new Error(`this key has the viewer role: it may only read; dlq replay needs an operator key`);
      const security = kafkaSecurity(config);
      await assertKafkaAnswers(config.kafkaBrokers, security, `${config.kafkaClientId}-dlq`);
      const all = await readDeadLetters({ brokers: config.kafkaBrokers, security, topicPrefix: config.topicPrefix, clientId: `${config.kafkaClientId}-dlq`, topic, sinceMs });
      const mine = all.filter((r) => r.tenantId === tenant.tenantId);
      const dlq = dlqTopicOf(topic);
      const marks = new RedisReplayMarks(redis, { namespace: config.topicPrefix, ttlMs: DLQ_RETENTION_MS });
      const replayed = await marks.replayed(tenant.tenantId, dlq);
      if (action === 'list') return list(mine.slice(-limit), mine.length, replayed, format, tenant, dlq, io);
      return await replay(mine, replayed, marks, topic, config, security, tenant, io);
    } finally {
      await close();
    }
  },
};

function list(shown: DeadLetterRecord[], total: number, replayed: Map<string, string>, format: string, tenant: ResolvedTenant, dlq: string, io: CommandIo): number {
  for (const r of shown) {
    const at = replayed.get(`${r.partition}/${r.offset}`);
    const source = { topic: r.sourceTopic, partition: r.sourcePartition, offset: r.sourceOffset };
    if (format === 'jsonl') {
      io.stdout.write(JSON.stringify({ dlq: { partition: r.partition, offset: r.offset }, at: r.at, source, attempts: r.attempts, eventId: r.eventId, key: r.key, error: r.error, replayedAt: at ?? null }) + '\n');
    } else {
      io.stdout.write(
        [`${r.partition}/${r.offset}`, r.at, `${source.topic}/${source.partition ?? '?'}/${source.offset ?? '?'}`, `attempts ${r.attempts ?? '?'}`, `event ${r.eventId ?? '?'}`, at ? `replayed ${at}` : 'not replayed', r.error].join('\t') + '\n',
      );
    }
  }
  io.stderr.write(`${total} dead letter(s) of tenant ${tenant.tenantId} on ${dlq}${shown.length < total ? ` (the newest ${shown.length} shown)` : ''}\n`);
  return 0;
}

async function replay(
  mine: DeadLetterRecord[],
  replayed: Map<string, string>,
  marks: RedisReplayMarks,
  topic: TopicName,
  config: WayfinderConfig,
  security: ReturnType<typeof kafkaSecurity>,
  tenant: ResolvedTenant,
  io: CommandIo,
): Promise<number> {
  const dlq = dlqTopicOf(topic);
  const due = mine.filter((r) => !replayed.has(`${r.partition}/${r.offset}`));
  const bus = new KafkaBus({ brokers: config.kafkaBrokers, security, clientId: `${config.kafkaClientId}-dlq-replay`, topicPrefix: config.topicPrefix });
  const progress = progressOn(io.stderr as NodeJS.WriteStream, `replaying ${dlq}`, { total: due.length });
  let sent = 0;
  let invalid = 0;
  try {
    for (const r of due) {
      const check = decodePayload(topic, r.value);
      if (!check.ok) {
        invalid++;
        io.stderr.write(`not replayed ${r.partition}/${r.offset} (event ${r.eventId ?? '?'}): it still fails ${topic}: ${check.error}\n`);
      } else {
        await bus.publishRaw(topic, r.key, r.value, replayHeaders(r, config.topicPrefix + dlq));
        await marks.mark(tenant.tenantId, dlq, r.partition, r.offset);
        sent++;
        io.stdout.write(`replayed ${r.partition}/${r.offset} event ${r.eventId ?? '?'} to ${topic}\n`);
      }
      progress.tick(1, r.eventId ?? undefined);
    }
  } finally {
    progress.done();
    await bus.stop();
  }
  io.stderr.write(`replayed ${sent} dead letter(s) of tenant ${tenant.tenantId} to ${topic}; ${mine.length - due.length} replayed before, ${invalid} still invalid\n`);
  return invalid > 0 ? 1 : 0;
}
