/**
 * The Bus port (DESIGN §3, STYLE "Ports at the edges"): typed publish/subscribe over the topic registry.
 * Adapters: InProcessBus (embedded mode, unit tests) and KafkaBus (distributed). Both pass the same
 * contract suite (bus.contract.ts): per-key order, batch delivery, invalid input to `<topic>.dlq` with
 * the original bytes and reason headers, one delivery per consumer group, commit only after success.
 */
import type { PayloadOf, TopicName } from '@wayfinder/contracts';

/** One message as a handler sees it. `topic` is the logical name (without any namespace prefix). */
export interface Delivered<P> {
  readonly topic: string;
  readonly partition: number;
  /** Position in the partition, as a decimal string (Kafka offsets exceed 2^53). */
  readonly offset: string;
  readonly key: string | null;
  readonly payload: P;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Handles a batch of messages of one partition, in order. Resolving means every message is done and its
 * offset may be committed; rejecting retries the batch (see RetryPolicy). Handlers must be idempotent:
 * delivery is at-least-once.
 */
export type BatchHandler<P> = (batch: Delivered<P>[]) => Promise<void>;

export interface SubscribeOptions {
  /** Consumer group: every group receives each message once; members of a group share the partitions. */
  readonly groupId: string;
  /** Upper bound of messages per handler call (default 256). */
  readonly maxBatchSize?: number;
  /** Kafka only: where a new group starts. Default true (a new group sees the retained history). */
  readonly fromBeginning?: boolean;
}

export interface PublishOptions {
  /** Headers added to every message of this call (e.g. trace context). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Headers of one message, laid over `headers` (e.g. each payload's own trace context). */
  readonly headersFor?: (index: number) => Readonly<Record<string, string>> | undefined;
}

/** The headers of the index-th message of a publish call. */
export function messageHeaders(options: PublishOptions, index: number): Record<string, string> {
  const own = options.headersFor?.(index);
  return own ? { ...options.headers, ...own } : { ...options.headers };
}

/**
 * What happens when a handler rejects. The batch is retried with exponential backoff up to `maxAttempts`;
 * then each message is retried alone, and a message that still fails goes to `<topic>.dlq` with the error
 * and the attempt count in its headers, so a poison message cannot block its partition forever and a
 * restart does not forget the count. `maxAttempts: Infinity` retries forever (for sinks that must not skip).
 */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
}

/**
 * What a consumer's handlers depend on (Redis, say). When a handler fails while a dependency does not
 * answer, the failure is the outage's, not the message's: the consumer pauses (heartbeating, nothing
 * committed, nothing dead-lettered) until `ready()` holds again, then retries the batch — back-pressure
 * instead of dead-lettering good messages one by one (DESIGN §7).
 */
export interface DependencyGate {
  /** Resolves true when every dependency answers (bounded in time: false rather than hanging). */
  ready(): Promise<boolean>;
  /** Told when consumption pauses for an outage and when it resumes. */
  onChange?(paused: boolean, pausedMs: number): void;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, initialBackoffMs: 100, maxBackoffMs: 5_000 };
export const DEFAULT_MAX_BATCH_SIZE = 256;

export interface Bus {
  /** Publishes payloads keyed by `keyOf(topic, payload)`; resolves when the transport accepted all of them. */
  publish<T extends TopicName>(topic: T, payloads: readonly PayloadOf<T>[], options?: PublishOptions): Promise<void>;
  /** Publishes bytes as they are, unvalidated: ingest of outside input, tests of the DLQ path. */
  publishRaw(topic: string, key: string | null, value: Buffer | string, headers?: Readonly<Record<string, string>>): Promise<void>;
  /**
   * Registers a handler of validated payloads; call before the `start()` that starts its consumer group
   * (a group already consuming cannot take another topic; a new group can join a started bus). Messages that are not JSON or fail
   * the topic's schema never reach the handler: they go to `<topic>.dlq` (DLQ_HEADERS, original bytes).
   */
  subscribe<T extends TopicName>(topic: T, handler: BatchHandler<PayloadOf<T>>, options: SubscribeOptions): void;
  /** Registers a handler of raw bytes (e.g. on a `.dlq` topic). Failures are retried, never dead-lettered. */
  subscribeRaw(topic: string, handler: BatchHandler<Buffer>, options: SubscribeOptions): void;
  /** Connects and starts consuming, in every group subscribed so far (again after new groups subscribed). */
  start(): Promise<void>;
  /** Finishes the in-flight batches, commits what was handled, disconnects. */
  stop(): Promise<void>;
  /**
   * Kafka only (in process one member owns every partition): told after every rebalance of one of this
   * bus's consumer groups which partitions of each topic the group's member here now holds, so a service
   * can write back and drop the state of the partitions it lost (DESIGN §7).
   */
  onAssignment?(listener: AssignmentListener): void;
}

/** A consumer group's assignment after a rebalance: logical group id, partitions held by logical topic. */
export type AssignmentListener = (groupId: string, assignment: Readonly<Record<string, readonly number[]>>) => void;
