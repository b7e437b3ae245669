/**
 * The Kafka Bus adapter on @platformatic/kafka 1.35 (issue #17), beside KafkaBus (kafkajs) and passing
 * the same contract suite; chosen with WAYFINDER_KAFKA_CLIENT=platformatic (kafka-client.ts), kafkajs
 * stays the default. Why: `bench floor --client both` measures its pass-through at about 0.72× kafkajs'
 * CPU per message (BENCHMARKS.md #17).
 *
 * The same guarantees as KafkaBus, built on this client's model:
 * - Producer: idempotent (one request in flight, acks all), the partitioner of kafkajs'
 *   DefaultPartitioner (Java murmur2), so both clients put an agent on the same partition; one producer
 *   per topic published (a lane, as KafkaBus), one send in flight per lane, and what arrives for that
 *   topic meanwhile goes out together in the next one (group commit).
 * - Consumer: one per consumer group, a MessagesStream in paused mode (it fetches ahead up to its
 *   high-water mark, so the buffer is bounded: back-pressure). What is buffered is read in one go,
 *   split by partition (order kept) and delivered in chunks of maxBatchSize through deliverBatch, the
 *   same validation, retries and DLQ as KafkaBus. Offsets are committed only after a chunk is done: once
 *   per read, in the background (one commit in flight; what is handled meanwhile goes in the next one),
 *   and before leaving the group on stop; nothing is auto-committed. Not on an interval, as KafkaBus
 *   does: this client gives no hook before it rejoins, so offsets handled but not yet committed at a
 *   rebalance would be handled again by the partition's next owner.
 * - Rebalance: this client rejoins on its own (heartbeats are timed, not tied to the handlers). Records
 *   of a partition this member no longer holds are dropped unhandled (its new owner reads them from the
 *   committed offset), and a chunk in retry stops when its partition goes. After a join the stream fetches
 *   again from the committed offsets: what this member handled since its last commit comes again and is
 *   skipped (offset below the next one to handle), so a partition it keeps stays in order without
 *   repeats. The assignment listeners hear every join.
 *
 * The package is ESM only: Node ≥ 20.19 loads it with require(), but Jest's CommonJS runtime cannot
 * (and it wraps `node:module` too), so it is loaded through Node's own require, reached with
 * process.getBuiltinModule (Node ≥ 20.16), and only its types are imported.
 */
import type * as Platformatic from '@platformatic/kafka';
import { dlqTopicOf, keyOf, type PayloadOf, type TopicName } from '@wayfinder/contracts';
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
import { CO_PARTITIONED_ASSIGNER } from './co-partitioned-assigner';
import { deadLetterHeaders, encodePayload, messageOf } from './codec';
import { MAX_REQUEST_BYTES, messageSize, sleep } from './wire-size';
import { ProducerLanes, type Lane as ProducerLane } from './producer-lanes';
import { deliverBatch, type DeadLetter, type RawRecord, type Subscription } from './delivery';
import type { KafkaBusOptions } from './kafka.bus';

type Client = typeof Platformatic;
type InMessage = Platformatic.Message<string | undefined, Buffer, string, string>;
type OutMessage = Platformatic.MessageToProduce<string | undefined, Buffer, string, string>;
type StringConsumer = Platformatic.Consumer<string | undefined, Buffer, string, string>;
type StringProducer = Platformatic.Producer<string | undefined, Buffer, string, string>;
type Stream = Platformatic.MessagesStream<string | undefined, Buffer, string, string>;

let loaded: Client | undefined;
/** The @platformatic/kafka module, loaded on first use (see the header comment). */
export function platformaticKafka(): Client {
  const nodeModule = (process as unknown as { getBuiltinModule(id: string): typeof import('node:module') }).getBuiltinModule('node:module');
  loaded ??= nodeModule.createRequire(__filename)('@platformatic/kafka') as Client;
  return loaded;
}

/** The options of KafkaBus, minus kafkajs' log level (this client logs through `log` only). */
export type PlatformaticBusOptions = Omit<KafkaBusOptions, 'logLevel'>;

interface GroupEntry {
  readonly groupId: string;
  readonly fromBeginning: boolean;
  /** Keyed by the topic's name on the broker. */
  readonly topics: Map<string, { subscription: Subscription; maxBatchSize: number }>;
}

/** A consumer group's member in this process and its delivery loop. */
interface RunningGroup {
  readonly consumer: StringConsumer;
  readonly stream: Stream;
  running: boolean;
  /** Resolves when the delivery loop has finished its chunk in flight. */
  loop: Promise<void>;
  /** Next offset to handle per `topic:partition` held: lower ones were handled here already. */
  readonly handledNext: Map<string, bigint>;
  /** Next offset to commit per broker topic and partition: handled, not committed yet. */
  readonly toCommit: Map<string, { topic: string; partition: number; offset: bigint }>;
  /** The commit in flight, if any; `again` when more was handled while it ran. */
  committing: Promise<void> | null;
  again: boolean;
}

/** A publish waiting for its produce request (a piece of one when it was larger than a request). */
interface Outgoing {
  readonly messages: OutMessage[];
  readonly bytes: number;
  resolve(): void;
  reject(error: unknown): void;
}

/** One topic's producer and the publishes waiting for its next send (see KafkaBus.send). */
type Lane = ProducerLane<Outgoing, StringProducer>;

/** Records buffered ahead per consumer (the stream's high-water mark): the bound of back-pressure. */
const BUFFERED_RECORDS = 2_048;

export class PlatformaticBus implements Bus {
  private readonly prefix: string;
  private readonly retry: RetryPolicy;
  private readonly groups = new Map<string, GroupEntry>();
  private readonly log: NonNullable<KafkaBusOptions['log']>;
  /** Each new producer asks for its producer id at once, so that a lane's first send does not wait for it. */
  private readonly lanes = new ProducerLanes<Outgoing, StringProducer>({
    make: () => this.newProducer(),
    // A failure here comes back at the lane's first send, which retries the init and rejects its publishes.
    watch: (producer) =>
      void producer.initIdempotentProducer({}).catch((error: unknown) => {
        if (!this.stopping) this.log('warn', `producer not ready: ${messageOf(error)}`);
      }),
  });
  private stopping = false;
  private running: RunningGroup[] = [];
  private readonly startedGroups = new Set<string>();
  private readonly assignmentListeners: AssignmentListener[] = [];

  constructor(private readonly options: PlatformaticBusOptions) {
    this.prefix = options.topicPrefix ?? '';
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.log = options.log ?? ((level, message) => process.stderr.write(`[kafka-bus] ${level}: ${message}\n`));
  }

  /** The name of a logical topic on the broker. */
  physical(topic: string): string {
    return this.prefix + topic;
  }

  async publish<T extends TopicName>(topic: T, payloads: readonly PayloadOf<T>[], options: PublishOptions = {}): Promise<void> {
    if (payloads.length === 0) return;
    const name = this.physical(topic);
    await this.send(
      payloads.map((p, i) => ({
        topic: name,
        key: keyOf(topic, p) ?? undefined,
        value: encodePayload(p),
        headers: options.headersFor ? messageHeaders(options, i) : options.headers ? { ...options.headers } : undefined,
      })),
    );
  }

  async publishRaw(topic: string, key: string | null, value: Buffer | string, headers?: Readonly<Record<string, string>>): Promise<void> {
    await this.send([{ topic: this.physical(topic), key: key ?? undefined, value: typeof value === 'string' ? Buffer.from(value, 'utf8') : value, headers: headers ? { ...headers } : undefined }]);
  }

  subscribe<T extends TopicName>(topic: T, handler: BatchHandler<PayloadOf<T>>, options: SubscribeOptions): void {
    this.register({ kind: 'typed', topic, groupId: options.groupId, handler: handler as BatchHandler<unknown> }, options);
  }

  subscribeRaw(topic: string, handler: BatchHandler<Buffer>, options: SubscribeOptions): void {
    this.register({ kind: 'raw', topic, groupId: options.groupId, handler }, options);
  }

  async start(): Promise<void> {
    try {
      // The declared topics' lanes get their producer id now (KafkaBusOptions.publishes), not at their first publish.
      this.stopping = false;
      const lanes = (this.options.publishes ?? []).map((topic) => this.lanes.producerOf(this.lanes.of(this.physical(topic))));
      await Promise.all(lanes.map((producer) => producer.initIdempotentProducer({})));
      this.lanes.keepSpare();
      for (const group of this.groups.values()) {
        if (this.startedGroups.has(group.groupId)) continue;
        this.startedGroups.add(group.groupId);
        this.running.push(await this.startConsumer(group));
      }
    } catch (error) {
      await this.stop().catch(() => undefined);
      throw error;
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const running = this.running;
    this.running = [];
    this.startedGroups.clear();
    await Promise.all(
      running.map(async (group) => {
        group.running = false;
        await group.loop;
        while (group.committing) await group.committing;
        await this.commitNow(group).catch((error: unknown) => this.log('warn', `final commit failed: ${messageOf(error)}`));
        await group.stream.close().catch(() => undefined);
        await group.consumer.close().catch(() => undefined);
      }),
    );
    const producers = await this.lanes.drain();
    await Promise.all(producers.map((producer) => producer.close()));
  }

  onAssignment(listener: AssignmentListener): void {
    this.assignmentListeners.push(listener);
  }

  private register(subscription: Subscription, options: SubscribeOptions): void {
    if (this.startedGroups.has(subscription.groupId)) {
      throw new Error(`PlatformaticBus: group ${subscription.groupId} is already consuming; subscribe to ${subscription.topic} before start()`);
    }
    let group = this.groups.get(subscription.groupId);
    if (!group) {
      group = { groupId: subscription.groupId, fromBeginning: options.fromBeginning ?? true, topics: new Map() };
      this.groups.set(subscription.groupId, group);
    }
    const name = this.physical(subscription.topic);
    if (group.topics.has(name)) throw new Error(`PlatformaticBus: group ${subscription.groupId} already has a handler for ${subscription.topic}`);
    group.topics.set(name, { subscription, maxBatchSize: options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE });
  }

  /** Connection options shared by the producer and the consumers: brokers, client id, TLS and SASL. */
  private base(suffix: string) {
    return {
      clientId: `${this.options.clientId ?? 'wayfinder'}${suffix}`,
      bootstrapBrokers: [...this.options.brokers],
      connectTimeout: 3_000,
      retries: 8,
      retryDelay: 100,
      ...platformaticSecurityOf(this.options.security),
    };
  }

  private newProducer(): StringProducer {
    const { Producer, compatibilityPartitioner, stringSerializer } = platformaticKafka();
    // Bounded retries, as KafkaBus: a publish to an unreachable broker rejects instead of hanging.
    return new Producer({
      ...this.base(''),
      retries: 12,
      idempotent: true,
      acks: -1,
      autocreateTopics: false,
      partitioner: compatibilityPartitioner,
      serializers: { key: stringSerializer, headerKey: stringSerializer, headerValue: stringSerializer },
    }) as StringProducer;
  }

  /**
   * Queues a publish on the lane of each of its topics (a dead-letter write may span several), cut in
   * pieces of at most MAX_REQUEST_BYTES; resolves when every piece is acknowledged. Topics do not wait
   * for each other's sends (see KafkaBus.send).
   */
  private send(messages: OutMessage[]): Promise<void> {
    const byTopic = new Map<string, OutMessage[]>();
    for (const m of messages) {
      const list = byTopic.get(m.topic);
      if (list) list.push(m);
      else byTopic.set(m.topic, [m]);
    }
    if (byTopic.size === 1) return this.sendOnLane(messages[0].topic, messages);
    return Promise.all([...byTopic].map(([topic, list]) => this.sendOnLane(topic, list))).then(() => undefined);
  }

  private sendOnLane(topic: string, messages: OutMessage[]): Promise<void> {
    const target = this.lanes.of(topic);
    const pieces: Promise<void>[] = [];
    let piece: OutMessage[] = [];
    let bytes = 0;
    const queue = () => {
      const taken = piece;
      const size = bytes;
      pieces.push(new Promise<void>((resolve, reject) => target.outbox.push({ messages: taken, bytes: size, resolve, reject })));
      piece = [];
      bytes = 0;
    };
    for (const m of messages) {
      const size = messageSize(m);
      if (piece.length > 0 && bytes + size > MAX_REQUEST_BYTES) queue();
      piece.push(m);
      bytes += size;
    }
    if (piece.length > 0) queue();
    if (!target.flushing) void this.flush(target);
    return Promise.all(pieces).then(() => undefined);
  }

  /** One produce request in flight per lane; everything queued on it meanwhile goes in the next one, up to the cap. */
  private async flush(lane: Lane): Promise<void> {
    lane.flushing = true;
    try {
      while (lane.outbox.length > 0) {
        const taken: Outgoing[] = [lane.outbox.shift()!];
        let bytes = taken[0].bytes;
        while (lane.outbox.length > 0 && bytes + lane.outbox[0].bytes <= MAX_REQUEST_BYTES) {
          bytes += lane.outbox[0].bytes;
          taken.push(lane.outbox.shift()!);
        }
        try {
          const messages = taken.length === 1 ? taken[0].messages : taken.flatMap((t) => t.messages);
          await this.lanes.producerOf(lane).send({ messages });
          for (const t of taken) t.resolve();
        } catch (error) {
          for (const t of taken) t.reject(error);
        }
      }
    } finally {
      lane.flushing = false;
    }
  }

  private async startConsumer(group: GroupEntry): Promise<RunningGroup> {
    const { Consumer, MessagesStreamModes, MessagesStreamFallbackModes, stringDeserializer } = platformaticKafka();
    const sessionTimeout = this.options.sessionTimeoutMs ?? 30_000;
    const consumer = new Consumer({
      ...this.base(''),
      groupId: this.prefix + group.groupId,
      sessionTimeout,
      rebalanceTimeout: Math.max(sessionTimeout, 60_000),
      heartbeatInterval: this.options.heartbeatIntervalMs ?? 3_000,
      autocommit: false,
      maxWaitTime: 500,
      highWaterMark: BUFFERED_RECORDS,
      protocols: [{ name: CO_PARTITIONED_ASSIGNER, version: 0 }],
      partitionAssigner: coPartitionedAssigner,
      deserializers: { key: stringDeserializer, headerKey: stringDeserializer, headerValue: stringDeserializer },
    }) as StringConsumer;
    const handledNext = new Map<string, bigint>();
    consumer.on('consumer:group:join', (payload) => {
      const held = new Set((payload.assignments ?? []).flatMap(({ topic, partitions }) => partitions.map((p) => `${topic}:${p}`)));
      for (const id of handledNext.keys()) if (!held.has(id)) handledNext.delete(id);
      this.assigned(group.groupId, payload.assignments ?? []);
    });
    const topics = [...group.topics.keys()];
    const joinTimeoutMs = this.options.joinTimeoutMs ?? 60_000;
    let stream: Stream;
    try {
      stream = await withTimeout(
        consumer.consume({
          topics,
          mode: MessagesStreamModes.COMMITTED,
          fallbackMode: group.fromBeginning ? MessagesStreamFallbackModes.EARLIEST : MessagesStreamFallbackModes.LATEST,
          autocommit: false,
        }),
        joinTimeoutMs,
        `consumer ${group.groupId} has not joined its group after ${joinTimeoutMs} ms`,
      );
    } catch (error) {
      await consumer.close().catch(() => undefined);
      throw new Error(`PlatformaticBus: cannot subscribe ${group.groupId} to ${topics.join(', ')} (were the topics created? \`wayfinder topics create\`): ${messageOf(error)}`);
    }
    const running: RunningGroup = { consumer, stream, running: true, loop: Promise.resolve(), handledNext, toCommit: new Map(), committing: null, again: false };
    stream.on('error', (error: Error) => {
      if (!running.running) return;
      running.running = false;
      this.log('error', `consumer ${group.groupId} stopped (restarting): ${error.message}`);
      void this.restart(group, running);
    });
    // Paused mode: the stream fetches ahead to its high-water mark; the loop reads what is buffered.
    stream.on('readable', () => undefined);
    running.loop = this.deliveryLoop(group, running);
    return running;
  }

  /**
   * A stream that failed (its retries ran out, e.g. while the broker restarts) is not usable again: as
   * kafkajs restarts a crashed consumer, this closes the member and joins again with a new one, every
   * second until it joins or the bus stops. Nothing handled is lost: the new member reads from the
   * committed offsets.
   */
  private async restart(group: GroupEntry, failed: RunningGroup): Promise<void> {
    await failed.loop;
    while (failed.committing) await failed.committing;
    await this.commitNow(failed).catch(() => undefined);
    await failed.stream.close().catch(() => undefined);
    await new Promise<void>((resolve) => failed.consumer.close(true, () => resolve()));
    for (;;) {
      const index = this.running.indexOf(failed);
      if (index < 0) return; // stopped meanwhile
      await sleep(1_000);
      if (this.running.indexOf(failed) < 0) return;
      try {
        const fresh = await this.startConsumer(group);
        const at = this.running.indexOf(failed);
        if (at < 0) {
          fresh.running = false;
          await fresh.loop;
          await fresh.stream.close().catch(() => undefined);
          await fresh.consumer.close().catch(() => undefined);
          return;
        }
        this.running[at] = fresh;
        this.log('warn', `consumer ${group.groupId} joined again`);
        return;
      } catch (error) {
        this.log('warn', `consumer ${group.groupId} cannot join yet: ${messageOf(error)}`);
      }
    }
  }

  private async deliveryLoop(group: GroupEntry, running: RunningGroup): Promise<void> {
    const { stream } = running;
    while (running.running) {
      const records: InMessage[] = [];
      for (let m: InMessage | null; (m = stream.read() as InMessage | null) !== null; ) records.push(m);
      if (records.length === 0) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            stream.off('readable', done);
            resolve();
          };
          // Woken by data, or after a while to notice a stop.
          const timer = setTimeout(done, 200);
          stream.once('readable', done);
        });
        continue;
      }
      const byPartition = new Map<string, InMessage[]>();
      for (const m of records) {
        const id = `${m.topic}:${m.partition}`;
        const list = byPartition.get(id);
        if (list) list.push(m);
        else byPartition.set(id, [m]);
      }
      const lists = [...byPartition.values()];
      const concurrency = Math.max(1, this.options.partitionsConsumedConcurrently ?? 1);
      let next = 0;
      const worker = async () => {
        while (next < lists.length) await this.deliverPartition(group, running, lists[next++]);
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, lists.length) }, worker));
      this.commitSoon(running);
    }
  }

  /** One partition's records of a read, in order, in chunks; stops at the first chunk not done. */
  private async deliverPartition(group: GroupEntry, running: RunningGroup, read: InMessage[]): Promise<void> {
    const { topic, partition } = read[0];
    const entry = group.topics.get(topic);
    if (!entry) return;
    const id = `${topic}:${partition}`;
    const held = () => running.running && (running.consumer.assignments ?? []).some((a) => a.topic === topic && a.partitions.includes(partition));
    if (!held()) return;
    const from = running.handledNext.get(id);
    const messages = from === undefined ? read : read.filter((m) => m.offset >= from);
    if (messages.length === 0) return;
    const current = held;
    const context = {
      retry: this.retry,
      pause: async (ms: number) => {
        for (let left = ms; left > 0; left -= 200) {
          if (!current()) return false;
          await sleep(Math.min(left, 200));
        }
        return current();
      },
      deadLetter: (letters: DeadLetter[]) => this.deadLetter(letters),
      gate: this.options.gate as DependencyGate | undefined,
    };
    const logicalTopic = entry.subscription.topic;
    for (let i = 0; i < messages.length; i += entry.maxBatchSize) {
      if (!current()) return;
      const chunk = messages.slice(i, i + entry.maxBatchSize);
      const records: RawRecord[] = chunk.map((m) => ({
        topic: logicalTopic,
        partition: m.partition,
        offset: m.offset.toString(),
        key: m.key ?? null,
        value: m.value ?? null,
        headers: Object.fromEntries(m.headers),
      }));
      if (!(await deliverBatch(records, entry.subscription, context))) return;
      const next = chunk[chunk.length - 1].offset + 1n;
      running.handledNext.set(id, next);
      running.toCommit.set(id, { topic, partition, offset: next });
    }
  }

  /** Starts a commit of what is handled, or asks the one in flight for another after it. */
  private commitSoon(running: RunningGroup): void {
    if (running.toCommit.size === 0) return;
    if (running.committing) {
      running.again = true;
      return;
    }
    running.committing = this.commitNow(running)
      .catch((error: unknown) => this.log('warn', `commit failed: ${messageOf(error)}`))
      .finally(() => {
        running.committing = null;
        if (running.again) {
          running.again = false;
          this.commitSoon(running);
        }
      });
  }

  private async commitNow(running: RunningGroup): Promise<void> {
    if (running.toCommit.size === 0) return;
    const offsets = [...running.toCommit.values()].map((o) => ({ ...o, leaderEpoch: -1 }));
    running.toCommit.clear();
    await running.consumer.commit({ offsets });
  }

  private assigned(groupId: string, assignments: readonly { topic: string; partitions: number[] }[]): void {
    const assignment: Record<string, number[]> = {};
    for (const { topic, partitions } of assignments) {
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

  private async deadLetter(letters: DeadLetter[]): Promise<void> {
    await this.send(
      letters.map(({ record, error, attempts }) => ({
        topic: this.physical(dlqTopicOf(record.topic)),
        key: record.key ?? undefined,
        value: record.value ?? Buffer.alloc(0),
        headers: deadLetterHeaders({ topic: this.physical(record.topic), partition: record.partition, offset: record.offset }, error, attempts, record.headers),
      })),
    );
  }
}

/**
 * KafkaBus' co-partitioned assignment (co-partitioned-assigner.ts) in this client's assigner form:
 * partition p of every topic to the same member (members sorted, p mod their count).
 */
export const coPartitionedAssigner: Platformatic.GroupPartitionsAssigner = (_current, members, topics, metadata) => {
  const sorted = [...members.keys()].sort();
  const assignments = sorted.map((memberId) => ({ memberId, assignments: new Map<string, { topic: string; partitions: number[] }>() }));
  for (const topic of topics) {
    const count = metadata.topics.get(topic)?.partitionsCount ?? 0;
    for (let p = 0; p < count; p++) {
      const owned = assignments[p % sorted.length].assignments;
      const entry = owned.get(topic);
      if (entry) entry.partitions.push(p);
      else owned.set(topic, { topic, partitions: [p] });
    }
  }
  return assignments;
};

/** KafkaSecurity (kafkajs' `ssl`/`sasl` shape, from @wayfinder/config) as this client's `tls`/`sasl`. */
export function platformaticSecurityOf(security: KafkaBusOptions['security']): { tls?: import('node:tls').ConnectionOptions; sasl?: Platformatic.SASLOptions } {
  if (!security) return {};
  const out: { tls?: import('node:tls').ConnectionOptions; sasl?: Platformatic.SASLOptions } = {};
  if (security.ssl !== undefined && security.ssl !== false) out.tls = security.ssl === true ? {} : (security.ssl as import('node:tls').ConnectionOptions);
  if (security.sasl !== undefined) {
    const sasl = security.sasl as { mechanism: string; username?: string; password?: string };
    out.sasl = { mechanism: sasl.mechanism.toUpperCase() as Platformatic.SASLOptions['mechanism'], username: sasl.username, password: sasl.password };
  }
  return out;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

