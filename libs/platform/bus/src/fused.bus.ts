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
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The fused topics of a process and their in-process readers, shared by every FusedBus of the process. */
export class InProcessEdges {
  private readonly readers = new Map<string, Reader[]>();
  private offset = 0n;
  private deliveries = 0;

  /**
   * `groups`: the consumer groups that read fused topics in process (the navigation stages); any other
   * group (observers: history, memory) reads them from the inner bus, at its own pace, off the steps'
   * critical path. Omitted: every group.
   */
  constructor(
    readonly topics: readonly TopicName[],
    private readonly groups?: readonly string[],
  ) {}

  fuses(topic: string): topic is TopicName {
    return (this.topics as readonly string[]).includes(topic);
  }

  /** Whether this group's subscription to the topic is served in process. */
  serves(topic: string, groupId: string): topic is TopicName {
    return this.fuses(topic) && (this.groups === undefined || this.groups.includes(groupId));
  }

  /** Batches delivered in process so far (all topics). */
  get delivered(): number {
    return this.deliveries;
  }

  add(topic: TopicName, groupId: string, handler: BatchHandler<unknown>): void {
    const list = this.readers.get(topic) ?? [];
    if (list.some((r) => r.groupId === groupId)) throw new Error(`InProcessEdges: group ${groupId} already reads ${topic}`);
    list.push({ groupId, handler });
    this.readers.set(topic, list);
  }

  /**
   * Hands the payloads to every reader of the topic; rejects with the first failure once all settled.
   * Readers that also read another fused topic (the correction engine reads localized steps and the
   * deviations they cause) get the batch first, one after the other, so that they see a step before the
   * deviations it causes, as they would on the broker; then every other reader at the same time.
   */
  async deliver(topic: TopicName, payloads: readonly unknown[]): Promise<void> {
    const readers = this.readers.get(topic);
    if (!readers || readers.length === 0 || payloads.length === 0) return;
    this.deliveries++;
    const first = readers.filter((r) => this.readsAnother(r.groupId, topic));
    for (const reader of first) await reader.handler(this.batchOf(topic, payloads));
    const rest = readers.filter((r) => !first.includes(r));
    const settled = await Promise.allSettled(rest.map((reader) => reader.handler(this.batchOf(topic, payloads))));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
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

export class FusedBus implements Bus {
  /** The inner bus's rebalances, when it has any (the groups that consume from the broker; fused readers have none). */
  readonly onAssignment?: (listener: AssignmentListener) => void;

  constructor(
    readonly inner: Bus,
    readonly edges: InProcessEdges,
  ) {
    if (inner.onAssignment) this.onAssignment = inner.onAssignment.bind(inner);
  }

  async publish<T extends TopicName>(topic: T, payloads: readonly PayloadOf<T>[], options?: PublishOptions): Promise<void> {
    if (!this.edges.fuses(topic) || payloads.length === 0) return this.inner.publish(topic, payloads, options);
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
