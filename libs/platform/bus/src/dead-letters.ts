/**
 * Dead letters as operators see them (`wayfinder dlq list|replay`, DESIGN §13): a `<topic>.dlq` record
 * read back with where it came from (source topic, partition, offset), why (the error), how often it was
 * tried and when, and whose it is (the payload's `tenantId`: a record without a readable one belongs to
 * no tenant and is shown to none). Replaying re-publishes the original bytes with the original key to the
 * source topic (same key, same eventId: consumers are idempotent per event, so it is processed once), with
 * the DLQ headers replaced by one `wf-dlq-replayed-from` naming the dead letter. Pure, but `readDeadLetters`,
 * which reads a DLQ topic of the broker from an offset (or a time) to its end.
 */
import { randomBytes } from 'node:crypto';
import { DLQ_HEADERS, DLQ_SUFFIX, dlqTopicOf } from '@wayfinder/contracts';
import { Kafka, logLevel, type KafkaMessage } from 'kafkajs';
import { securityOf, type KafkaBusOptions } from './kafka.bus';
import { headersToStrings } from './codec';

export const REPLAYED_FROM_HEADER = 'wf-dlq-replayed-from';

export interface DeadLetterRecord {
  /** Where the dead letter itself is: the DLQ partition and offset (what a replay marks as done). */
  readonly partition: number;
  readonly offset: string;
  readonly key: string | null;
  readonly value: Buffer;
  /** The record's own headers, without the DLQ ones. */
  readonly headers: Readonly<Record<string, string>>;
  /** The logical source topic (without any prefix). */
  readonly sourceTopic: string;
  readonly sourcePartition: number | null;
  readonly sourceOffset: string | null;
  readonly error: string;
  readonly attempts: number | null;
  /** When it was dead-lettered (its header, else the broker's timestamp). */
  readonly at: string;
  /** The payload's tenantId, when the bytes are JSON with one. */
  readonly tenantId: string | null;
  /** The payload's eventId, when readable. */
  readonly eventId: string | null;
}

/** A raw DLQ record (as the broker hands it) as a DeadLetterRecord of the logical `sourceTopic`. */
export function deadLetterOf(
  raw: { partition: number; offset: string; key: Buffer | string | null; value: Buffer | null; headers: Readonly<Record<string, string>>; timestamp: string },
  sourceTopic: string,
  topicPrefix = '',
): DeadLetterRecord {
  const h = raw.headers;
  const own: Record<string, string> = {};
  const dlqNames = new Set<string>(Object.values(DLQ_HEADERS));
  for (const [name, value] of Object.entries(h)) if (!dlqNames.has(name)) own[name] = value;
  const value = raw.value ?? Buffer.alloc(0);
  let tenantId: string | null = null;
  let eventId: string | null = null;
  try {
    const parsed = JSON.parse(value.toString('utf8')) as { tenantId?: unknown; eventId?: unknown };
    if (typeof parsed === 'object' && parsed !== null) {
      if (typeof parsed.tenantId === 'string' && parsed.tenantId !== '') tenantId = parsed.tenantId;
      if (typeof parsed.eventId === 'string' && parsed.eventId !== '') eventId = parsed.eventId;
    }
  } catch {
    // not JSON: no tenant can be read; the record is shown to no tenant
  }
  const named = h[DLQ_HEADERS.sourceTopic];
  const source = named === undefined ? sourceTopic : named.startsWith(topicPrefix) && named.slice(topicPrefix.length) === sourceTopic ? sourceTopic : named;
  const partition = Number(h[DLQ_HEADERS.sourcePartition]);
  const attempts = Number(h[DLQ_HEADERS.attempts]);
  const stamped = Number(raw.timestamp);
  return {
    partition: raw.partition,
    offset: raw.offset,
    key: raw.key === null ? null : raw.key.toString(),
    value,
    headers: own,
    sourceTopic: source,
    sourcePartition: Number.isInteger(partition) && h[DLQ_HEADERS.sourcePartition] !== undefined ? partition : null,
    sourceOffset: h[DLQ_HEADERS.sourceOffset] ?? null,
    error: h[DLQ_HEADERS.error] ?? '(no reason recorded)',
    attempts: Number.isInteger(attempts) && h[DLQ_HEADERS.attempts] !== undefined ? attempts : null,
    at: h[DLQ_HEADERS.timestamp] ?? (Number.isFinite(stamped) ? new Date(stamped).toISOString() : new Date(0).toISOString()),
    tenantId,
    eventId,
  };
}

/** The headers a replayed record is published with: its own, plus where it was dead-lettered. */
export function replayHeaders(record: DeadLetterRecord, dlqTopic: string): Record<string, string> {
  return { ...record.headers, [REPLAYED_FROM_HEADER]: `${dlqTopic}/${record.partition}/${record.offset}` };
}

/** The source topic a `<topic>.dlq` name belongs to, or undefined when it is not a DLQ name. */
export function sourceOfDlq(dlqTopic: string): string | undefined {
  return dlqTopic.endsWith(DLQ_SUFFIX) ? dlqTopic.slice(0, -DLQ_SUFFIX.length) : undefined;
}

export interface ReadDeadLettersOptions {
  readonly brokers: readonly string[];
  readonly security?: KafkaBusOptions['security'];
  readonly topicPrefix?: string;
  readonly clientId?: string;
  /** The source topic (logical): `<prefix><topic>.dlq` is read. */
  readonly topic: string;
  /** Only records the broker stamped at or after this time (ms since the epoch). */
  readonly sinceMs?: number;
  /** Gives up after this long (ms, default 30 s). */
  readonly timeoutMs?: number;
}

/**
 * Every record of the DLQ from `sinceMs` (or its start) to the end it had when the read began, in
 * partition and offset order. Reads in a throw-away consumer group that is deleted afterwards; commits
 * nothing anybody else reads.
 */
export async function readDeadLetters(options: ReadDeadLettersOptions): Promise<DeadLetterRecord[]> {
  const prefix = options.topicPrefix ?? '';
  const physical = prefix + dlqTopicOf(options.topic);
  const kafka = new Kafka({ clientId: options.clientId ?? 'wayfinder-dlq', brokers: [...options.brokers], ...securityOf(options.security), logLevel: logLevel.NOTHING, connectionTimeout: 3_000, retry: { retries: 3 } });
  const admin = kafka.admin();
  await admin.connect();
  const groupId = `${prefix}wayfinder.dlq-reader.${randomBytes(6).toString('hex')}`;
  let consumer: ReturnType<Kafka['consumer']> | undefined;
  try {
    const topics = await admin.listTopics();
    if (!topics.includes(physical)) throw new Error(`no topic ${physical} on the broker (run wayfinder topics create)`);
    const ends = await admin.fetchTopicOffsets(physical);
    const starts = options.sinceMs !== undefined ? await admin.fetchTopicOffsetsByTimestamp(physical, options.sinceMs) : ends.map((e) => ({ partition: e.partition, offset: e.low }));
    const wanted = new Map<number, { from: bigint; end: bigint }>();
    for (const end of ends) {
      const start = starts.find((s) => s.partition === end.partition);
      const low = BigInt(end.low);
      const from = start && BigInt(start.offset) >= 0n ? (BigInt(start.offset) > low ? BigInt(start.offset) : low) : BigInt(end.high);
      if (from < BigInt(end.high)) wanted.set(end.partition, { from, end: BigInt(end.high) });
    }
    if (wanted.size === 0) return [];
    const records: DeadLetterRecord[] = [];
    const open = new Set(wanted.keys());
    consumer = kafka.consumer({ groupId, sessionTimeout: 10_000, heartbeatInterval: 1_000, allowAutoTopicCreation: false });
    await consumer.connect();
    await consumer.subscribe({ topic: physical, fromBeginning: true });
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const range = wanted.get(batch.partition);
        if (!range) return;
        for (const message of batch.messages as KafkaMessage[]) {
          const offset = BigInt(message.offset);
          if (offset < range.from || offset >= range.end) continue;
          records.push(deadLetterOf({ partition: batch.partition, offset: message.offset, key: message.key, value: message.value, headers: headersToStrings(message.headers), timestamp: message.timestamp }, options.topic, prefix));
        }
        const last = batch.messages.length > 0 ? BigInt(batch.messages[batch.messages.length - 1].offset) : -1n;
        if (last + 1n >= range.end) {
          open.delete(batch.partition);
          if (open.size === 0) done();
        }
      },
    });
    for (const [partition, range] of wanted) consumer.seek({ topic: physical, partition, offset: range.from.toString() });
    const timeoutMs = options.timeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([finished, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`reading ${physical} took longer than ${timeoutMs} ms`)), timeoutMs)))]).finally(() => clearTimeout(timer));
    return records.sort((a, b) => a.partition - b.partition || (BigInt(a.offset) < BigInt(b.offset) ? -1 : 1));
  } finally {
    await consumer?.disconnect().catch(() => undefined);
    if (consumer) await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
}
