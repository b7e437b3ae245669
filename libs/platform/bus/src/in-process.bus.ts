/**
 * The in-process Bus adapter: embedded mode (`wayfinder start`, `npm start`) and unit tests. It keeps the
 * semantics of the Kafka adapter where handlers can observe them: messages travel as JSON bytes and are
 * validated on the way in (invalid ones go to `<topic>.dlq`), partitions by key give per-key order, each
 * consumer group gets every message once, a partition is handled by one member at a time, and a batch
 * leaves the queue for good only when its handler succeeded. Queues are bounded: `publish` waits while
 * a group's queue is full (back-pressure), so a fast producer cannot exhaust memory.
 *
 * Not a log: a topic keeps messages only for groups that subscribed before they were published; a dead
 * letter that no group reads is reported through `onUnreadDeadLetter` (stderr by default) rather than
 * vanish. Several InProcessBus clients may share one InProcessBroker, like processes sharing a cluster.
 */
import { DLQ_HEADERS, DLQ_SUFFIX, dlqTopicOf, fnv1a32, keyOf, TOPICS, type PayloadOf, type TopicName } from '@wayfinder/contracts';
import {
  DEFAULT_MAX_BATCH_SIZE,
  DEFAULT_RETRY_POLICY,
  messageHeaders,
  type BatchHandler,
  type Bus,
  type DependencyGate,
  type PublishOptions,
  type RetryPolicy,
  type SubscribeOptions,
} from './bus';
import { deadLetterHeaders, encodePayload } from './codec';
import { deliverBatch, type DeadLetter, type RawRecord, type Subscription } from './delivery';

export const DEFAULT_QUEUE_CAPACITY = 1024;

export interface InProcessBusOptions {
  /** Share a broker between clients (e.g. to restart a consumer); by default each bus has its own. */
  readonly broker?: InProcessBroker;
  /** Messages a consumer group may have waiting before `publish` waits (default 1024). */
  readonly queueCapacity?: number;
  readonly retry?: Partial<RetryPolicy>;
  /** The handlers' dependencies: consumption pauses while they do not answer (see DependencyGate). */
  readonly gate?: DependencyGate;
}

export class InProcessBus implements Bus {
  readonly broker: InProcessBroker;
  private readonly capacity: number;
  private readonly retry: RetryPolicy;
  private readonly gate?: DependencyGate;
  private readonly subscriptions: Array<{ subscription: Subscription; group: GroupQueue; maxBatchSize: number }> = [];
  private pumps: Promise<void>[] = [];
  private running = false;
  private stopSignal = deferred();

  constructor(options: InProcessBusOptions = {}) {
    this.broker = options.broker ?? new InProcessBroker();
    this.capacity = options.queueCapacity ?? DEFAULT_QUEUE_CAPACITY;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.gate = options.gate;
  }

  async publish<T extends TopicName>(topic: T, payloads: readonly PayloadOf<T>[], options: PublishOptions = {}): Promise<void> {
    await this.broker.topic(topic).append(payloads.map((p, i) => ({ key: keyOf(topic, p), value: encodePayload(p), headers: messageHeaders(options, i) })));
  }

  async publishRaw(topic: string, key: string | null, value: Buffer | string, headers: Readonly<Record<string, string>> = {}): Promise<void> {
    const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    await this.broker.topic(topic).append([{ key, value: bytes, headers: { ...headers } }]);
  }

  subscribe<T extends TopicName>(topic: T, handler: BatchHandler<PayloadOf<T>>, options: SubscribeOptions): void {
    this.register({ kind: 'typed', topic, groupId: options.groupId, handler: handler as BatchHandler<unknown> }, options);
  }

  subscribeRaw(topic: string, handler: BatchHandler<Buffer>, options: SubscribeOptions): void {
    this.register({ kind: 'raw', topic, groupId: options.groupId, handler }, options);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopSignal = deferred();
    this.pumps = this.subscriptions.map((s) => this.pump(s.subscription, s.group, s.maxBatchSize));
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopSignal.resolve();
    await Promise.all(this.pumps);
    this.pumps = [];
  }

  private register(subscription: Subscription, options: SubscribeOptions): void {
    // The group exists from now on, so messages published before start() wait for it.
    const group = this.broker.topic(subscription.topic).group(subscription.groupId, this.capacity);
    const entry = { subscription, group, maxBatchSize: options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE };
    this.subscriptions.push(entry);
    if (this.running) this.pumps.push(this.pump(entry.subscription, entry.group, entry.maxBatchSize));
  }

  private async pump(subscription: Subscription, group: GroupQueue, maxBatchSize: number): Promise<void> {
    const context = {
      retry: this.retry,
      pause: (ms: number) => this.pause(ms),
      deadLetter: (letters: DeadLetter[]) => this.deadLetter(letters),
      gate: this.gate,
    };
    while (this.running) {
      const work = group.take(maxBatchSize);
      if (!work) {
        await Promise.race([group.waitForWork(), this.stopSignal.promise]);
        continue;
      }
      let done = false;
      try {
        done = await deliverBatch(work.records, subscription, context);
      } catch {
        // Only a failed dead-letter write lands here; the batch is retried after a pause.
        await this.pause(this.retry.initialBackoffMs);
      } finally {
        // Not done (stopping mid-retry, or a dead-letter write failed): the batch goes back, uncommitted.
        group.release(work.partition, done ? [] : work.records);
      }
    }
  }

  private async deadLetter(letters: DeadLetter[]): Promise<void> {
    for (const { record, error, attempts } of letters) {
      const headers = deadLetterHeaders(record, error, attempts, record.headers);
      await this.broker.topic(dlqTopicOf(record.topic)).append([{ key: record.key, value: record.value ?? Buffer.alloc(0), headers }]);
    }
  }

  private pause(ms: number): Promise<boolean> {
    if (!this.running) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(this.running), ms);
      void this.stopSignal.promise.then(() => {
        clearTimeout(timer);
        resolve(false);
      });
    });
  }
}

export type UnreadDeadLetterListener = (topic: string, key: string | null, headers: Readonly<Record<string, string>>) => void;

const reportToStderr: UnreadDeadLetterListener = (topic, key, headers) =>
  process.stderr.write(`[in-process-bus] dead letter on ${topic} with no reader (key ${key}): ${headers[DLQ_HEADERS.error] ?? 'no reason'}\n`);

/** The shared state of in-process topics and their consumer groups. */
export class InProcessBroker {
  private readonly topics = new Map<string, TopicQueue>();

  constructor(private readonly onUnreadDeadLetter: UnreadDeadLetterListener = reportToStderr) {}

  topic(name: string): TopicQueue {
    let topic = this.topics.get(name);
    if (!topic) {
      const spec = (TOPICS as Record<string, { partitions: number } | undefined>)[name];
      const onUnread = name.endsWith(DLQ_SUFFIX) ? this.onUnreadDeadLetter : undefined;
      topic = new TopicQueue(name, spec?.partitions ?? 1, onUnread);
      this.topics.set(name, topic);
    }
    return topic;
  }
}

interface Outgoing {
  readonly key: string | null;
  readonly value: Buffer;
  readonly headers: Record<string, string>;
}

class TopicQueue {
  private readonly nextOffset: number[];
  private readonly groups = new Map<string, GroupQueue>();
  private publishing: Promise<void> = Promise.resolve();
  private roundRobin = 0;

  constructor(
    readonly name: string,
    readonly partitions: number,
    private readonly onUnread?: UnreadDeadLetterListener,
  ) {
    this.nextOffset = new Array<number>(partitions).fill(0);
  }

  group(groupId: string, capacity: number): GroupQueue {
    let group = this.groups.get(groupId);
    if (!group) {
      group = new GroupQueue(this.partitions, capacity);
      this.groups.set(groupId, group);
    }
    return group;
  }

  /** Appends in call order: concurrent publishers to one topic queue up behind each other. */
  append(messages: readonly Outgoing[]): Promise<void> {
    const run = this.publishing.then(() => this.appendNow(messages));
    this.publishing = run.catch(() => undefined);
    return run;
  }

  private async appendNow(messages: readonly Outgoing[]): Promise<void> {
    for (const message of messages) {
      const partition = message.key === null ? this.roundRobin++ % this.partitions : partitionOf(message.key, this.partitions);
      const record: RawRecord = {
        topic: this.name,
        partition,
        offset: String(this.nextOffset[partition]++),
        key: message.key,
        value: message.value,
        headers: message.headers,
      };
      if (this.groups.size === 0) this.onUnread?.(this.name, record.key, record.headers);
      for (const group of this.groups.values()) await group.push(record);
    }
  }
}

/** One consumer group's view of a topic: a queue per partition, at most one batch in flight per partition. */
class GroupQueue {
  private readonly queues: RawRecord[][];
  private readonly busy: boolean[];
  private size = 0;
  private next = 0;
  private spaceWaiters: Array<() => void> = [];
  private workWaiters: Array<() => void> = [];

  constructor(
    partitions: number,
    private readonly capacity: number,
  ) {
    this.queues = Array.from({ length: partitions }, () => []);
    this.busy = new Array<boolean>(partitions).fill(false);
  }

  async push(record: RawRecord): Promise<void> {
    while (this.size >= this.capacity) await new Promise<void>((resolve) => this.spaceWaiters.push(resolve));
    this.queues[record.partition].push(record);
    this.size++;
    this.wake('work');
  }

  take(max: number): { partition: number; records: RawRecord[] } | null {
    const n = this.queues.length;
    for (let i = 0; i < n; i++) {
      const partition = (this.next + i) % n;
      if (this.busy[partition] || this.queues[partition].length === 0) continue;
      this.next = (partition + 1) % n;
      this.busy[partition] = true;
      const records = this.queues[partition].splice(0, max);
      this.size -= records.length;
      this.wake('space');
      return { partition, records };
    }
    return null;
  }

  release(partition: number, unhandled: RawRecord[]): void {
    if (unhandled.length > 0) {
      this.queues[partition].unshift(...unhandled);
      this.size += unhandled.length;
    }
    this.busy[partition] = false;
    this.wake('work');
  }

  waitForWork(): Promise<void> {
    return new Promise((resolve) => this.workWaiters.push(resolve));
  }

  private wake(what: 'work' | 'space'): void {
    const waiters = what === 'work' ? this.workWaiters : this.spaceWaiters;
    if (waiters.length === 0) return;
    if (what === 'work') this.workWaiters = [];
    else this.spaceWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** FNV-1a: stable across runs, so a key always lands on the same partition. */
export function partitionOf(key: string, partitions: number): number {
  return fnv1a32(key) % partitions;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
