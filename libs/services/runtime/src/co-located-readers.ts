/**
 * The one in-process edge of a process's layout (DESIGN §3, issue #28): in the one-pass pipeline, the
 * history recorder and the memory service running beside the navigator read its localized steps in
 * process instead of back from the broker (no second fetch and decode per step). It is the runtime's
 * wiring, not the bus's: the buses stay transports, and this wrapper hands each publish of the one topic
 * to the co-located readers' batch handlers while still publishing it (unless the topic is local:
 * WAYFINDER_LOCALIZED_OUTPUT=none).
 * - at-least-once: a reader that fails fails the publish, so the navigator's steps batch is retried (or its
 *   step dead-lettered with the reason); readers are idempotent, as on the broker;
 * - back-pressure: nothing is queued; the publish (and so the steps' commit) waits for every reader, and
 *   the navigator publishes its corrections before its localized steps, so a reader never delays a correction;
 * - rebalances: a reader's batches come from the steps consumer's partitions, so its durable state follows
 *   that consumer's rebalances (`rebalancesFrom`), also through a bus client of its own (the memory service's).
 * A group served here must not read the topic from the broker in another process: a fleet runs the same
 * services everywhere, and mixed deployments use WAYFINDER_PIPELINE=separate. Local deliveries carry no
 * transport headers, partition -1 and offsets of their own, and skip the schema check (the typed publisher
 * built the payload in this process).
 */
import type { PayloadOf, TopicName } from '@wayfinder/contracts';
import { settleAll, type AssignmentListener, type BatchHandler, type Bus, type Delivered, type PublishOptions, type SubscribeOptions } from '@wayfinder/bus';

type RebalanceSource = Pick<Bus, 'onAssignment'>;

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** The co-located readers of one topic in this process, shared by the CoLocatedBus of each bus client. */
export class CoLocatedReaders {
  private readonly handlers = new Map<string, BatchHandler<unknown>>();
  private readonly sources: RebalanceSource[] = [];
  private offset = 0n;

  /** `groups`: the consumer groups whose subscription to `topic` is served here; `local`: not published on the bus. */
  constructor(
    readonly topic: TopicName,
    readonly groups: readonly string[],
    readonly local = false,
  ) {}

  serves(topic: string, groupId: string): boolean {
    return topic === this.topic && this.groups.includes(groupId);
  }

  /** The bus whose consumer publishes the topic (the steps consumer's): the readers follow its rebalances. Call before building the CoLocatedBuses. */
  rebalancesFrom(bus: RebalanceSource): void {
    if (bus.onAssignment && !this.sources.includes(bus)) this.sources.push(bus);
  }

  get rebalanceSources(): readonly RebalanceSource[] {
    return this.sources;
  }

  add(groupId: string, handler: BatchHandler<unknown>): void {
    if (this.handlers.has(groupId)) throw new Error(`CoLocatedReaders: group ${groupId} already reads ${this.topic}`);
    this.handlers.set(groupId, handler);
  }

  /** Hands the payloads to every reader at once; rejects with the first failure once all have settled. */
  async deliver(payloads: readonly unknown[]): Promise<void> {
    if (this.handlers.size === 0 || payloads.length === 0) return;
    // A handler that throws before its first await still yields a rejected promise, not a throw here.
    const calls = [...this.handlers.values()].map(async (handler) => handler(this.batchOf(payloads)));
    await settleAll(calls);
  }

  private batchOf(payloads: readonly unknown[]): Delivered<unknown>[] {
    const batch: Delivered<unknown>[] = new Array(payloads.length);
    for (let i = 0; i < payloads.length; i++) {
      batch[i] = { topic: this.topic, partition: -1, offset: String(this.offset++), key: null, payload: payloads[i], headers: NO_HEADERS };
    }
    return batch;
  }
}

/** A bus client whose subscriptions and publishes of the co-located topic are served in process. */
export class CoLocatedBus implements Bus {
  readonly onAssignment?: (listener: AssignmentListener) => void;

  constructor(
    readonly inner: Bus,
    readonly readers: CoLocatedReaders,
  ) {
    const sources = [inner, ...readers.rebalanceSources.filter((s) => s !== inner)].filter((s) => s.onAssignment);
    if (sources.length > 0) this.onAssignment = (listener) => sources.forEach((s) => s.onAssignment?.(listener));
  }

  async publish<T extends TopicName>(topic: T, payloads: readonly PayloadOf<T>[], options?: PublishOptions): Promise<void> {
    if (topic !== this.readers.topic || payloads.length === 0) return this.inner.publish(topic, payloads, options);
    if (this.readers.local) return this.readers.deliver(payloads);
    // The output and the readers at the same time; both settle before this does, so a retry never overlaps a reader still running.
    const [output, read] = await Promise.allSettled([this.inner.publish(topic, payloads, options), this.readers.deliver(payloads)]);
    if (read.status === 'rejected') throw read.reason;
    if (output.status === 'rejected') throw output.reason;
  }

  publishRaw(topic: string, key: string | null, value: Buffer | string, headers?: Readonly<Record<string, string>>): Promise<void> {
    return this.inner.publishRaw(topic, key, value, headers);
  }

  subscribe<T extends TopicName>(topic: T, handler: BatchHandler<PayloadOf<T>>, options: SubscribeOptions): void {
    if (this.readers.serves(topic, options.groupId)) this.readers.add(options.groupId, handler as BatchHandler<unknown>);
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
