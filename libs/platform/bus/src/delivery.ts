/**
 * What a consumer does with a batch of records of one partition, whatever the transport: validate,
 * dead-letter the invalid ones, hand the valid ones to the handler, retry on failure (RetryPolicy), and
 * report whether every record is done so that the adapter may commit. Shared by both adapters.
 */
import type { TopicName } from '@wayfinder/contracts';
import type { BatchHandler, Delivered, DependencyGate, RetryPolicy } from './bus';
import { decodePayload, messageOf } from './codec';

/** A record as read from the transport, before validation. */
export interface RawRecord {
  /** Logical topic name (what handlers and `dlqTopicOf` see). */
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: string | null;
  readonly value: Buffer | null;
  readonly headers: Readonly<Record<string, string>>;
}

export type Subscription =
  | { readonly kind: 'typed'; readonly topic: TopicName; readonly groupId: string; readonly handler: BatchHandler<unknown> }
  | { readonly kind: 'raw'; readonly topic: string; readonly groupId: string; readonly handler: BatchHandler<Buffer> };

export interface DeadLetter {
  readonly record: RawRecord;
  readonly error: string;
  readonly attempts: number;
}

export interface DeliveryContext {
  readonly retry: RetryPolicy;
  /** Waits between attempts (a Kafka consumer heartbeats meanwhile); resolves false when stopping. */
  pause(ms: number): Promise<boolean>;
  /** Writes to `<topic>.dlq`; resolves once the transport accepted the messages. */
  deadLetter(letters: DeadLetter[]): Promise<void>;
  /** When set, a failure during a dependency outage waits for the dependency instead of counting. */
  readonly gate?: DependencyGate;
}

/**
 * Resolves true when every record is done (handled or dead-lettered) and may be committed, false when
 * the consumer is stopping in the middle of retries (nothing of this batch may be committed then).
 */
export async function deliverBatch(records: readonly RawRecord[], subscription: Subscription, context: DeliveryContext): Promise<boolean> {
  if (subscription.kind === 'raw') {
    const batch = records.map((record) => ({ record, delivered: toDelivered(record, record.value ?? Buffer.alloc(0)) }));
    // A raw consumer is usually the last stop (a DLQ reader); there is no further place to dead-letter to.
    return handleWithRetry(batch, subscription.handler, { ...context, retry: { ...context.retry, maxAttempts: Infinity } });
  }
  const valid: Array<{ record: RawRecord; delivered: Delivered<unknown> }> = [];
  const invalid: DeadLetter[] = [];
  for (const record of records) {
    const decoded = decodePayload(subscription.topic, record.value);
    if (decoded.ok) valid.push({ record, delivered: toDelivered(record, decoded.payload) });
    else invalid.push({ record, error: decoded.error, attempts: 1 });
  }
  if (invalid.length > 0) await context.deadLetter(invalid);
  if (valid.length === 0) return true;
  return handleWithRetry(valid, subscription.handler, context);
}

function toDelivered<P>(record: RawRecord, payload: P): Delivered<P> {
  return { topic: record.topic, partition: record.partition, offset: record.offset, key: record.key, payload, headers: record.headers };
}

async function handleWithRetry<P>(
  batch: Array<{ record: RawRecord; delivered: Delivered<P> }>,
  handler: BatchHandler<P>,
  context: DeliveryContext,
): Promise<boolean> {
  const whole = await attempt(batch.map((b) => b.delivered), handler, context);
  if (whole.outcome !== 'failed') return whole.outcome === 'done';
  if (batch.length === 1) {
    await context.deadLetter([{ record: batch[0].record, error: `handler failed: ${whole.error}`, attempts: whole.attempts }]);
    return true;
  }
  // The batch keeps failing: isolate the poison message(s) so the rest of the partition can move on.
  for (const item of batch) {
    const single = await attempt([item.delivered], handler, context);
    if (single.outcome === 'stopped') return false;
    if (single.outcome === 'failed') {
      await context.deadLetter([{ record: item.record, error: `handler failed: ${single.error}`, attempts: single.attempts }]);
    }
  }
  return true;
}

type Attempt = { outcome: 'done' } | { outcome: 'stopped' } | { outcome: 'failed'; error: string; attempts: number };

async function attempt<P>(batch: Delivered<P>[], handler: BatchHandler<P>, context: DeliveryContext): Promise<Attempt> {
  const { maxAttempts, initialBackoffMs, maxBackoffMs } = context.retry;
  let backoff = initialBackoffMs;
  for (let attempts = 1; ; attempts++) {
    try {
      await handler(batch);
      return { outcome: 'done' };
    } catch (error) {
      const outage = await waitOutOutage(context);
      if (outage === 'stopped') return { outcome: 'stopped' };
      if (outage === 'waited') {
        // The dependency was down: this attempt says nothing about the message. Try again at once.
        attempts--;
        backoff = initialBackoffMs;
        continue;
      }
      if (attempts >= maxAttempts) return { outcome: 'failed', error: messageOf(error), attempts };
    }
    if (!(await context.pause(backoff))) return { outcome: 'stopped' };
    backoff = Math.min(maxBackoffMs, backoff * 2);
  }
}

/** After a failure: 'waited' when a dependency was down (and now answers), 'up' when it never was. */
async function waitOutOutage(context: DeliveryContext): Promise<'up' | 'waited' | 'stopped'> {
  const gate = context.gate;
  if (!gate || (await gate.ready().catch(() => false))) return 'up';
  const started = Date.now();
  gate.onChange?.(true, 0);
  for (;;) {
    if (!(await context.pause(500))) return 'stopped';
    if (await gate.ready().catch(() => false)) break;
  }
  gate.onChange?.(false, Date.now() - started);
  return 'waited';
}
