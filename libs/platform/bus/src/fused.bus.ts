/**
 * Fused edges (DESIGN §3 co-location, §14; issue #17). The per-agent services are co-partitioned: an
 * agent's steps, localized steps and deviations are on partition p of each topic, owned by the same
 * instance. When the stage that produces a topic runs in this process, its co-located readers need not
 * read it back from the broker: a FusedBus hands each publish of a fused topic to them in process, inside
 * the publisher's own batch, while still publishing it on the inner bus as an output (for observers,
 * history, other tools). So one consumer of the steps topic per partition carries a step through
 * localizer → detector → correction engine, and the steps' offsets are committed only when every stage's
 * state and outputs are durable:
 * - per-agent order: a publish is delivered before it resolves, and every fused reader gets the batch in
 *   publish order, as the publisher's own batch is in order (see `deliver` for the order of readers);
 * - at-least-once: a reader that fails fails the publish, so the upstream batch fails and is retried (or
 *   its step dead-lettered with the reason) by the inner bus; readers are idempotent, as on the broker;
 * - back-pressure: nothing is queued, the upstream consumer waits for its readers.
 * Observers (the history recorder, the memory service: readers that only record what they read and publish
 * nothing into a fused topic) get each batch at the same time as the navigation readers, from the start, so
 * their Redis writes overlap the navigation stages' instead of following them; the publish still waits for
 * every reader, so the upstream batch is committed only after their writes too.
 * A fused topic may be local (`local`): handed to its in-process readers only, not published on the inner
 * bus, for a deployment where nobody outside the process reads it.
 * Readers of a fused topic (of the groups named) subscribe here and not on the inner bus, so the topic must not
 * also be consumed by the same group in another process (a fleet runs the same services everywhere; mixed
 * deployments use `WAYFINDER_PIPELINE=separate`). Local deliveries carry no transport headers, partition
 * -1 and offsets of their own (unique per delivery), and skip the schema check: the payload was built by
 * the typed publisher in this process.
 */
import type { PayloadOf, TopicName } from '@wayfinder/contracts';
import type { AssignmentListener, BatchHandler, Bus, Delivered, PublishOptions, SubscribeOptions } from './bus';

interface Reader {
  readonly groupId: string;
  readonly handler: BatchHandler<unknown>;
  /** An observer of this topic (see the header): delivered at once, beside the ordered readers. */
  readonly observer: boolean;
}

/** Who reads fused topics in process, beyond the topics themselves (see InProcessEdges' constructor). */
export interface EdgeReaders {
  /**
   * The consumer groups whose subscriptions to every fused topic are served in process (the navigation
   * stages), delivered in the order `deliver` describes. Omitted: every group.
   */
  readonly groups?: readonly string[];
  /**
   * Per fused topic, groups served in process as observers of that topic only: they get each batch at the
   * same time as the ordered readers and must not publish into a fused topic (their order against the
   * other readers is not kept). Their subscriptions to other topics stay on the inner bus.
   */
  readonly observers?: Readonly<Partial<Record<TopicName, readonly string[]>>>;
  /** Fused topics not published on the inner bus: their in-process readers are their only readers. */
  readonly local?: readonly TopicName[];
}

type RebalanceSource = Pick<Bus, 'onAssignment'>;

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The fused topics of a process and their in-process readers, shared by every FusedBus of the process. */
export class InProcessEdges {
  private readonly readers = new Map<string, Reader[]>();
  private offset = 0n;
  private deliveries = 0;
  private readonly groups?: readonly string[];
  private readonly observers: Readonly<Partial<Record<TopicName, readonly string[]>>>;
  private readonly localTopics: readonly TopicName[];
  private readonly sources: RebalanceSource[] = [];

  /**
   * `readers`: the consumer groups that read fused topics in process (an array: the navigation stages,
   * ordered readers of every fused topic; or EdgeReaders, which also names observers and local topics).
   * Any other group reads the topics from the inner bus. Omitted: every group, ordered.
   */
  constructor(
    readonly topics: readonly TopicName[],
    readers?: readonly string[] | EdgeReaders,
  ) {
    const options: EdgeReaders = Array.isArray(readers) ? { groups: readers as readonly string[] } : ((readers as EdgeReaders | undefined) ?? {});
    this.groups = options.groups;
    this.observers = options.observers ?? {};
    this.localTopics = options.local ?? [];
    for (const topic of [...Object.keys(this.observers), ...this.localTopics]) {
      if (!this.fuses(topic)) throw new Error(`InProcessEdges: ${topic} is not a fused topic (${this.topics.join(', ') || 'none'})`);
    }
  }

  fuses(topic: string): topic is TopicName {
    return (this.topics as readonly string[]).includes(topic);
  }

  /** Whether this group's subscription to the topic is served in process. */
  serves(topic: string, groupId: string): topic is TopicName {
    return this.fuses(topic) && (this.groups === undefined || this.groups.includes(groupId) || this.observes(topic, groupId));
  }

  /** Whether the topic is only handed to its in-process readers (not published on the inner bus). */
  isLocal(topic: string): boolean {
    return (this.localTopics as readonly string[]).includes(topic);
  }

  /**
   * The rebalances of the bus whose consumers publish into these edges (the steps consumer's): an
   * in-process reader's batches come from that consumer's partitions, so a reader's durable state follows
   * them too (FusedBus.onAssignment). Call before the FusedBuses are built.
   */
  rebalancesFrom(bus: RebalanceSource): void {
    if (bus.onAssignment && !this.sources.includes(bus)) this.sources.push(bus);
  }

  /** The buses whose rebalances the in-process readers follow (rebalancesFrom). */
  get rebalanceSources(): readonly RebalanceSource[] {
    return this.sources;
  }

  private observes(topic: string, groupId: string): boolean {
    return this.observers[topic as TopicName]?.includes(groupId) ?? false;
  }

  /** Batches delivered in process so far (all topics). */
  get delivered(): number {
    return this.deliveries;
  }

  add(topic: TopicName, groupId: string, handler: BatchHandler<unknown>): void {
    const list = this.readers.get(topic) ?? [];
    if (list.some((r) => r.groupId === groupId)) throw new Error(`InProcessEdges: group ${groupId} already reads ${topic}`);
    list.push({ groupId, handler, observer: this.observes(topic, groupId) && !(this.groups === undefined || this.groups.includes(groupId)) });
    this.readers.set(topic, list);
  }

  /**
   * Hands the payloads to every reader of the topic; rejects with the first failure once all settled.
   * Observers get the batch at once; of the ordered readers, those that also read another fused topic
   * (the correction engine reads localized steps and the deviations they cause) get it first, one after
   * the other, so that they see a step before the deviations it causes, as they would on the broker; then
   * every other ordered reader at the same time.
   */
  async deliver(topic: TopicName, payloads: readonly unknown[]): Promise<void> {
    const readers = this.readers.get(topic);
    if (!readers || readers.length === 0 || payloads.length === 0) return;
    this.deliveries++;
    // A handler that throws before its first await still yields a rejected promise, not a throw here.
    const call = async (reader: Reader) => reader.handler(this.batchOf(topic, payloads));
    const observed = readers.filter((r) => r.observer).map(call);
    const ordered = readers.filter((r) => !r.observer);
    const first = ordered.filter((r) => this.readsAnother(r.groupId, topic));
    const rest = ordered.filter((r) => !first.includes(r));
    const navigation = (async () => {
      for (const reader of first) await call(reader);
      await settleAll(rest.map(call));
    })();
    // Every reader settles before this does, so a retry of the upstream batch never overlaps one still running.
    await settleAll([navigation, ...observed]);
  }

  private readsAnother(groupId: string, topic: string): boolean {
    for (const [other, list] of this.readers) if (other !== topic && list.some((r) => r.groupId === groupId)) return true;
    return false;
  }

  private batchOf(topic: TopicName, payloads: readonly unknown[]): Delivered<unknown>[] {
    const batch: Delivered<unknown>[] = new Array(payloads.length);
    for (let i = 0; i < payloads.length; i++) {
      batch[i] = { topic, partition: -1, offset: String(this.offset++), key: null, payload: payloads[i], headers: NO_HEADERS };
    }
    return batch;
  }
}

/** Waits for every promise; rejects with the first failure (in the given order) once all settled. */
async function settleAll(promises: readonly Promise<unknown>[]): Promise<void> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

export class FusedBus implements Bus {
  /**
   * The inner bus's rebalances and those of the edges' upstream consumers (`rebalancesFrom`), when there
   * are any: an in-process reader's batches come from the upstream consumer's partitions.
   */
  readonly onAssignment?: (listener: AssignmentListener) => void;

  constructor(
    readonly inner: Bus,
    readonly edges: InProcessEdges,
  ) {
    const sources = [inner, ...edges.rebalanceSources.filter((s) => s !== inner)].filter((s) => s.onAssignment);
    if (sources.length > 0) this.onAssignment = (listener) => sources.forEach((s) => s.onAssignment?.(listener));
  }

  async publish<T extends TopicName>(topic: T, payloads: readonly PayloadOf<T>[], options?: PublishOptions): Promise<void> {
    if (!this.edges.fuses(topic) || payloads.length === 0) return this.inner.publish(topic, payloads, options);
    if (this.edges.isLocal(topic)) return this.edges.deliver(topic, payloads);
    // The output and the in-process readers at the same time; both settle before this does, so a retry
    // never overlaps a reader still running.
    const [output, readers] = await Promise.allSettled([this.inner.publish(topic, payloads, options), this.edges.deliver(topic, payloads)]);
    if (readers.status === 'rejected') throw readers.reason;
    if (output.status === 'rejected') throw output.reason;
  }

  publishRaw(topic: string, key: string | null, value: Buffer | string, headers?: Readonly<Record<string, string>>): Promise<void> {
    return this.inner.publishRaw(topic, key, value, headers);
  }

  subscribe<T extends TopicName>(topic: T, handler: BatchHandler<PayloadOf<T>>, options: SubscribeOptions): void {
    if (this.edges.serves(topic, options.groupId)) this.edges.add(topic, options.groupId, handler as BatchHandler<unknown>);
    else this.inner.subscribe(topic, handler, options);
  }

  subscribeRaw(topic: string, handler: BatchHandler<Buffer>, options: SubscribeOptions): void {
    this.inner.subscribeRaw(topic, handler, options);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  stop(): Promise<void> {
    return this.inner.stop();
  }
}
