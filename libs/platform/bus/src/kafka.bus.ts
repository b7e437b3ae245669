/**
 * The Kafka Bus adapter (kafkajs 2.2.4), for distributed and co-located modes. Producers: one per topic
 * published (a lane), each idempotent with one request in flight and its sends serialized (kafkajs'
 * idempotent producer can lose messages when sends to one partition overlap, tulios/kafkajs#1005; a
 * partition belongs to one topic, so to one lane), keys from `keyOf` so an agent's events share a partition.
 * Consumer: one per consumer group, `eachBatch` with manual resolution: offsets are resolved and
 * committed only after the handler (or the DLQ write) succeeded, heartbeats between chunks and during
 * retry pauses, and a stop finishes the in-flight chunk and commits it before leaving the group.
 */
import { dlqTopicOf, keyOf, type PayloadOf, type TopicName } from '@wayfinder/contracts';
import { Kafka, logLevel as LogLevel, PartitionAssigners, type Consumer, type EachBatchPayload, type KafkaConfig, type LogEntry, type Message, type Producer } from 'kafkajs';
import { keyPartitioner } from './key-partitioner';
import { ProducerLanes, type Lane as ProducerLane } from './producer-lanes';
import { MAX_REQUEST_BYTES, messageSize, sleep } from './wire-size';
import {
  DEFAULT_MAX_BATCH_SIZE,
  DEFAULT_RETRY_POLICY,
  messageHeaders,
  type AssignmentListener,
  type BatchHandler,
  type Bus,
  type DependencyGate,
  type PublishOptions,
  type RetryPolicy,
  type SubscribeOptions,
} from './bus';
import { coPartitionedAssigner } from './co-partitioned-assigner';
import { deadLetterHeaders, encodePayload, headersToStrings, messageOf } from './codec';
import { deliverBatch, type DeadLetter, type RawRecord, type Subscription } from './delivery';

export interface KafkaBusOptions {
  readonly brokers: readonly string[];
  readonly clientId?: string;
  /** TLS and SASL of the Kafka clients (kafkajs `ssl`/`sasl`; see kafkaSecurity of @wayfinder/config). */
  readonly security?: { readonly ssl?: unknown; readonly sasl?: unknown };
  /**
   * Namespace prepended to every topic name and consumer group id on the broker
   * (`<prefix>wayfinder.steps.v1`), e.g. one per environment or per test run. Handlers still see the
   * logical names. Default: none.
   */
  readonly topicPrefix?: string;
  readonly retry?: Partial<RetryPolicy>;
  /** The handlers' dependencies: consumption pauses while they do not answer (see DependencyGate). */
  readonly gate?: DependencyGate;
  readonly sessionTimeoutMs?: number;
  readonly heartbeatIntervalMs?: number;
  /** Partitions of one consumer handled at the same time (order stays per partition). Default 1. */
  readonly partitionsConsumedConcurrently?: number;
  /** How long start() waits for each consumer to join its group. Default 60 s. */
  readonly joinTimeoutMs?: number;
  /** kafkajs log level (default WARN) and where its lines go (default stderr). */
  readonly logLevel?: LogLevel;
  readonly log?: (level: 'error' | 'warn' | 'info' | 'debug', message: string) => void;
  /**
   * Told when a consumer crashed and kafkajs will not restart it: the process consumes nothing more in
   * that group, so the caller should stop cleanly (and be restarted) rather than run on deaf.
   */
  readonly onFatal?: (error: Error) => void;
  /**
   * Topics this process publishes (logical names): their lanes' producers connect during start(), so
   * the first publish of each does not wait for a producer's connect (a one-pass batch's first
   * correction, deviation and localized step would each pay a connect). A topic not listed gets its lane
   * at its first publish, from a spare producer kept connected for it. Default: none.
   */
  readonly publishes?: readonly string[];
}

/** A publish waiting for its produce request. */
interface Outgoing {
  readonly topic: string;
  readonly messages: Message[];
  readonly bytes: number;
  resolve(): void;
  reject(error: unknown): void;
}

/** One topic's producer and the publishes waiting for its next request (see KafkaBus.send). */
type Lane = ProducerLane<Outgoing, Promise<Producer>>;

interface GroupEntry {
  readonly groupId: string;
  readonly fromBeginning: boolean;
  /** Keyed by the topic's name on the broker. */
  readonly topics: Map<string, { subscription: Subscription; maxBatchSize: number }>;
}

/**
 * kafkajs lines that are normal operation, not news: rebalances when a member joins or leaves; every
 * error response of a request (retried by kafkajs, and thrown to our caller if retries run out); and the
 * warning about bounded producer retries, which we choose (see connectProducer).
 */
const EXPECTED_LOG_LINES = [
  /The group is rebalancing, re-joining/,
  /The coordinator is not aware of this member/,
  /^Response \w+\(key: \d+, version: \d+\)$/,
  /Limiting retries for the idempotent producer/,
];

export class KafkaBus implements Bus {
  private readonly kafka: Kafka;
  private readonly prefix: string;
  private readonly retry: RetryPolicy;
  private readonly groups = new Map<string, GroupEntry>();
  private readonly log: NonNullable<KafkaBusOptions['log']>;
  /** A failed connect is forgotten, so the lane's next request connects again. */
  private readonly lanes = new ProducerLanes<Outgoing, Promise<Producer>>({
    make: () => this.connectProducer(),
    watch: (producer, lost) => void producer.catch(lost),
  });
  private consumers: Consumer[] = [];
  private readonly startedGroups = new Set<string>();
  private readonly assignmentListeners: AssignmentListener[] = [];

  constructor(private readonly options: KafkaBusOptions) {
    this.prefix = options.topicPrefix ?? '';
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.log = options.log ?? ((level, message) => process.stderr.write(`[kafka-bus] ${level}: ${message}\n`));
    this.kafka = new Kafka({
      clientId: options.clientId ?? 'wayfinder',
      brokers: [...options.brokers],
      ...(securityOf(options.security)),
      logLevel: options.logLevel ?? LogLevel.WARN,
      logCreator: () => (entry: LogEntry) => this.kafkaLog(entry),
      connectionTimeout: 3_000,
      retry: { initialRetryTime: 100, retries: 8 },
    });
  }

  /** The name of a logical topic on the broker. */
  physical(topic: string): string {
    return this.prefix + topic;
  }

  async publish<T extends TopicName>(topic: T, payloads: readonly PayloadOf<T>[], options: PublishOptions = {}): Promise<void> {
    if (payloads.length === 0) return;
    const headers = options.headers ? { ...options.headers } : undefined;
    await this.send(
      this.physical(topic),
      payloads.map((p, i) => ({ key: keyOf(topic, p), value: encodePayload(p), headers: options.headersFor ? messageHeaders(options, i) : headers })),
    );
  }

  async publishRaw(topic: string, key: string | null, value: Buffer | string, headers?: Readonly<Record<string, string>>): Promise<void> {
    await this.send(this.physical(topic), [{ key, value, headers: headers ? { ...headers } : undefined }]);
  }

  subscribe<T extends TopicName>(topic: T, handler: BatchHandler<PayloadOf<T>>, options: SubscribeOptions): void {
    this.register({ kind: 'typed', topic, groupId: options.groupId, handler: handler as BatchHandler<unknown> }, options);
  }

  subscribeRaw(topic: string, handler: BatchHandler<Buffer>, options: SubscribeOptions): void {
    this.register({ kind: 'raw', topic, groupId: options.groupId, handler }, options);
  }

  /**
   * Connects the producer and starts a consumer for every group that has none yet. Groups subscribed
   * after a start are started by the next call, so several services can share one bus (each service its
   * own consumer group, DESIGN §3) and start in turn.
   */
  async start(): Promise<void> {
    try {
      const lanes = (this.options.publishes ?? []).map((topic) => this.lanes.producerOf(this.lanes.of(this.physical(topic))));
      await Promise.all([...lanes, this.lanes.keepSpare()]);
      for (const group of this.groups.values()) {
        if (this.startedGroups.has(group.groupId)) continue;
        this.startedGroups.add(group.groupId);
        const consumer = await this.startConsumer(group);
        this.consumers.push(consumer);
      }
    } catch (error) {
      // Half-started is worse than not started: release what did connect, then report.
      await this.stop().catch(() => undefined);
      throw error;
    }
  }

  async stop(): Promise<void> {
    // disconnect() waits for the batch in flight; kafkajs commits the resolved offsets before leaving.
    await Promise.all(this.consumers.map((c) => c.disconnect()));
    this.consumers = [];
    this.startedGroups.clear();
    const producers = await this.lanes.drain();
    await Promise.all(producers.map(async (ready) => (await ready.catch(() => null))?.disconnect()));
  }

  private register(subscription: Subscription, options: SubscribeOptions): void {
    if (this.startedGroups.has(subscription.groupId)) {
      throw new Error(`KafkaBus: group ${subscription.groupId} is already consuming; subscribe to ${subscription.topic} before start()`);
    }
    const fromBeginning = options.fromBeginning ?? true;
    let group = this.groups.get(subscription.groupId);
    if (!group) {
      group = { groupId: subscription.groupId, fromBeginning, topics: new Map() };
      this.groups.set(subscription.groupId, group);
    }
    const name = this.physical(subscription.topic);
    if (group.topics.has(name)) throw new Error(`KafkaBus: group ${subscription.groupId} already has a handler for ${subscription.topic}`);
    group.topics.set(name, { subscription, maxBatchSize: options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE });
  }

  private connectProducer(): Promise<Producer> {
    // Bounded retries (~1 min) instead of kafkajs' idempotent default of forever: a publish to an
    // unreachable broker rejects, so the caller fails its batch (uncommitted, redelivered) instead of
    // hanging, and stop() can finish. A retry after an ambiguous failure may duplicate a message;
    // delivery is at-least-once anyway and consumers dedupe by eventId/seq (DESIGN §3).
    const producer = this.kafka.producer({
      idempotent: true,
      retry: { retries: 12, initialRetryTime: 100, maxRetryTime: 5_000 },
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      // DefaultPartitioner's choice, computed without its per-message Long and array allocations.
      createPartitioner: keyPartitioner,
    });
    return connectPastMissingController(() => producer.connect()).then(() => producer);
  }

  /**
   * One produce request in flight at a time per topic (see the header comment), and everything that
   * arrives for that topic while it is in flight goes out together in the next one: under load, one round
   * trip carries the topic's publishes of every batch handler in the process (group commit); idle, a
   * publish leaves at once. Topics do not wait for each other (issue #17: a correction queued behind the
   * localized steps' request waited for their round trip, and the stages' chain localized →
   * deviations → corrections paid one such wait per hop). Messages keep their call order per topic (so
   * per partition); across topics Kafka orders nothing anyway, and a handler's publishes all resolve
   * before its offsets are committed. A request is capped at about MAX_REQUEST_BYTES; a failed request
   * rejects exactly the publishes it carried.
   */
  private send(topic: string, messages: Message[]): Promise<void> {
    const target = this.lanes.of(topic);
    return new Promise<void>((resolve, reject) => {
      target.outbox.push({ topic, messages, bytes: sizeOf(messages), resolve, reject });
      if (!target.flushing) void this.flush(target);
    });
  }

  private async flush(lane: Lane): Promise<void> {
    lane.flushing = true;
    try {
      while (lane.outbox.length > 0) {
        const taken = takeRequest(lane.outbox, MAX_REQUEST_BYTES);
        try {
          const producer = await this.lanes.producerOf(lane);
          const byTopic = new Map<string, Message[]>();
          for (const { topic, messages } of taken) {
            const list = byTopic.get(topic);
            if (list) for (const m of messages) list.push(m);
            else byTopic.set(topic, [...messages]);
          }
          await producer.sendBatch({ topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })), acks: -1 });
          for (const t of taken) t.resolve();
        } catch (error) {
          for (const t of taken) t.reject(error);
        }
      }
    } finally {
      lane.flushing = false;
    }
  }

  private async startConsumer(group: GroupEntry): Promise<Consumer> {
    const consumer = this.kafka.consumer({
      groupId: this.prefix + group.groupId,
      sessionTimeout: this.options.sessionTimeoutMs ?? 30_000,
      heartbeatInterval: this.options.heartbeatIntervalMs ?? 3_000,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: 500,
      // Co-partitioned first; round-robin second, so a group mid-upgrade from an older build still agrees.
      partitionAssigners: [coPartitionedAssigner, PartitionAssigners.roundRobin],
    });
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    consumer.on(consumer.events.GROUP_JOIN, (event) => this.assigned(group.groupId, event.payload.memberAssignment));
    consumer.on(consumer.events.CRASH, (event) => {
      const { error, restart } = event.payload;
      this.log('error', `consumer ${group.groupId} crashed (${restart ? 'restarting' : 'not restarting'}): ${messageOf(error)}`);
      if (!restart) this.options.onFatal?.(error instanceof Error ? error : new Error(messageOf(error)));
    });
    await consumer.connect();
    const topics = [...group.topics.keys()];
    try {
      await consumer.subscribe({ topics, fromBeginning: group.fromBeginning });
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      throw new Error(`KafkaBus: cannot subscribe ${group.groupId} to ${topics.join(', ')} (were the topics created? \`wayfinder topics create\`): ${messageOf(error)}`);
    }
    await consumer.run({
      eachBatchAutoResolve: false,
      autoCommit: true,
      autoCommitInterval: 1_000,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 1,
      eachBatch: (payload) => this.eachBatch(group, payload),
    });
    const joinTimeoutMs = this.options.joinTimeoutMs ?? 60_000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), joinTimeoutMs)));
    if (await Promise.race([joined.then(() => false), timedOut])) {
      this.log('warn', `consumer ${group.groupId} has not joined its group after ${joinTimeoutMs} ms; it keeps trying`);
    }
    clearTimeout(timer);
    return consumer;
  }

  onAssignment(listener: AssignmentListener): void {
    this.assignmentListeners.push(listener);
  }

  private assigned(groupId: string, physical: Record<string, number[]>): void {
    const assignment: Record<string, number[]> = {};
    for (const [topic, partitions] of Object.entries(physical ?? {})) {
      if (topic.startsWith(this.prefix)) assignment[topic.slice(this.prefix.length)] = [...partitions].sort((a, b) => a - b);
    }
    for (const listener of this.assignmentListeners) {
      try {
        listener(groupId, assignment);
      } catch (error) {
        this.log('error', `assignment listener of ${groupId} failed: ${messageOf(error)}`);
      }
    }
  }

  private async eachBatch(group: GroupEntry, payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale } = payload;
    const entry = group.topics.get(batch.topic);
    if (!entry) return;
    const logicalTopic = entry.subscription.topic;
    const context = {
      retry: this.retry,
      pause: async (ms: number) => {
        // Sleep in slices and heartbeat, so a long retry pause does not cost the partition.
        for (let left = ms; left > 0; left -= 1_000) {
          if (!isRunning() || isStale()) return false;
          await sleep(Math.min(left, 1_000));
          await heartbeat();
        }
        return isRunning() && !isStale();
      },
      deadLetter: (letters: DeadLetter[]) => this.deadLetter(letters),
      gate: this.options.gate,
    };
    const records: RawRecord[] = batch.messages.map((m) => ({
      topic: logicalTopic,
      partition: batch.partition,
      offset: m.offset,
      key: m.key ? m.key.toString('utf8') : null,
      value: m.value,
      headers: headersToStrings(m.headers),
    }));
    for (let i = 0; i < records.length; i += entry.maxBatchSize) {
      if (!isRunning() || isStale()) return;
      const chunk = records.slice(i, i + entry.maxBatchSize);
      if (!(await deliverBatch(chunk, entry.subscription, context))) return;
      resolveOffset(chunk[chunk.length - 1].offset);
      await heartbeat();
      await commitOffsetsIfNecessary();
    }
  }

  private async deadLetter(letters: DeadLetter[]): Promise<void> {
    const byTopic = new Map<string, Message[]>();
    for (const { record, error, attempts } of letters) {
      const source = { topic: this.physical(record.topic), partition: record.partition, offset: record.offset };
      const message: Message = { key: record.key, value: record.value, headers: deadLetterHeaders(source, error, attempts, record.headers) };
      const dlq = this.physical(dlqTopicOf(record.topic));
      byTopic.set(dlq, [...(byTopic.get(dlq) ?? []), message]);
    }
    for (const [topic, messages] of byTopic) await this.send(topic, messages);
  }

  private kafkaLog(entry: LogEntry): void {
    const detail = typeof entry.log['error'] === 'string' ? ` (${entry.log['error']})` : '';
    const message = `${entry.namespace}: ${entry.log.message}${detail}`;
    if (EXPECTED_LOG_LINES.some((pattern) => pattern.test(entry.log.message))) return;
    const level = entry.level <= LogLevel.ERROR ? 'error' : entry.level === LogLevel.WARN ? 'warn' : entry.level === LogLevel.INFO ? 'info' : 'debug';
    this.log(level, message);
  }
}

function sizeOf(messages: readonly Message[]): number {
  let bytes = 0;
  for (const m of messages) bytes += messageSize(m);
  return bytes;
}

/**
 * The publishes of the next request, taken from the front of the queue: whole publishes up to maxBytes
 * (at least one). A single publish larger than maxBytes is cut, its tail left at the front for the next
 * request, so nothing can interleave with it.
 */
function takeRequest(outbox: Outgoing[], maxBytes: number): Outgoing[] {
  const taken: Outgoing[] = [];
  let bytes = 0;
  while (outbox.length > 0) {
    const next = outbox[0];
    if (next.bytes <= maxBytes - bytes) {
      taken.push(outbox.shift()!);
      bytes += next.bytes;
      continue;
    }
    if (taken.length > 0) break;
    // Larger than a request on its own: send its head now, keep the rest in front.
    let cut = 0;
    let head = 0;
    while (cut < next.messages.length && (cut === 0 || head + messageSize(next.messages[cut]) <= maxBytes)) head += messageSize(next.messages[cut++]);
    const part = next.messages.slice(0, cut);
    const rest = next.messages.slice(cut);
    if (rest.length === 0) {
      taken.push(outbox.shift()!);
      break;
    }
    outbox[0] = { ...next, messages: rest, bytes: next.bytes - head };
    // The head resolves nothing: the publish is done when its last part is acknowledged; a failure of
    // any part rejects it (a later part's resolve() is then a no-op on a settled promise).
    taken.push({ topic: next.topic, messages: part, bytes: head, resolve: () => undefined, reject: next.reject });
    break;
  }
  return taken;
}

/**
 * Connects, trying again while kafkajs finds no controller in its metadata (`KafkaJSBrokerNotFound`,
 * "Broker -1": a KRaft broker can answer metadata before it names its controller, and the idempotent
 * producer asks the controller for its id at connect). kafkajs does not retry that error itself; any
 * other error rejects at once, as before.
 */
export async function connectPastMissingController(connect: () => Promise<void>, attempts = 10, delayMs = 300): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await connect();
    } catch (error) {
      if ((error as Error)?.name !== 'KafkaJSBrokerNotFound' || attempt >= attempts) throw error;
      await sleep(delayMs);
    }
  }
}

/** kafkajs' `ssl`/`sasl` client options from a KafkaSecurity (typed loosely: the config builds it). */
export function securityOf(security: KafkaBusOptions['security']): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  if (!security) return {};
  return { ...(security.ssl !== undefined && { ssl: security.ssl as KafkaConfig['ssl'] }), ...(security.sasl !== undefined && { sasl: security.sasl as KafkaConfig['sasl'] }) };
}

