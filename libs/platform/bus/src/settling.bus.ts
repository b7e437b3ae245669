/**
 * A Bus wrapper that knows when everything published has been handled by every subscriber in this
 * process. A fleet driven in lockstep — publish a round, wait until the pipeline has settled, hand back
 * the corrections — sees each correction before its agent's next step, whatever the machine's speed,
 * so a seeded run gives the same numbers every time. Works over any adapter whose consumers all live
 * in this process (the in-process bus; Kafka with every service co-located). Dead letters are written by
 * the adapters themselves, not through publish: a `.dlq` subscription is not counted, and a dead letter
 * makes `settled()` fail at once, since the message it replaces will never be handled.
 */
import { DLQ_SUFFIX, type PayloadOf, type TopicName } from '@wayfinder/contracts';
import type { AssignmentListener, BatchHandler, Bus, PublishOptions, SubscribeOptions } from './bus';
import { InProcessBus, type InProcessBroker } from './in-process.bus';

interface Counted {
  topic: string;
  /** Messages on the topic before this subscription existed: it never sees them. */
  base: number;
  handled: number;
}

export class SettlingBus implements Bus {
  private readonly published = new Map<string, number>();
  private readonly subscriptions: Counted[] = [];
  private waiters: Array<() => void> = [];
  /** Dead letters seen by `.dlq` subscribers (where they came from and why). */
  readonly deadLetters: string[] = [];

  /** The inner bus's rebalances, when it has any (Kafka). */
  readonly onAssignment?: (listener: AssignmentListener) => void;

  constructor(readonly inner: Bus) {
    if (inner.onAssignment) this.onAssignment = inner.onAssignment.bind(inner);
  }

  /**
   * The inner in-process bus's broker: the embedded runtime gives the gateway and its otlp-normalizer a
   * client of their own on it, so what an agent posts to the gateway of a simulated fleet (`npm start`)
   * reaches the same pipeline. Their publications are not counted here: a run that settles in lockstep
   * takes no posts.
   */
  get innerBroker(): InProcessBroker | undefined {
    return this.inner instanceof InProcessBus ? this.inner.broker : undefined;
  }

  async publish<T extends TopicName>(topic: T, payloads: readonly PayloadOf<T>[], options?: PublishOptions): Promise<void> {
    this.count(topic, payloads.length);
    await this.inner.publish(topic, payloads, options);
  }

  async publishRaw(topic: string, key: string | null, value: Buffer | string, headers?: Readonly<Record<string, string>>): Promise<void> {
    this.count(topic, 1);
    await this.inner.publishRaw(topic, key, value, headers);
  }

  subscribe<T extends TopicName>(topic: T, handler: BatchHandler<PayloadOf<T>>, options: SubscribeOptions): void {
    this.inner.subscribe(topic, this.counting(topic, handler), options);
  }

  subscribeRaw(topic: string, handler: BatchHandler<Buffer>, options: SubscribeOptions): void {
    if (!topic.endsWith(DLQ_SUFFIX)) return this.inner.subscribeRaw(topic, this.counting(topic, handler), options);
    this.inner.subscribeRaw(
      topic,
      async (batch) => {
        for (const d of batch) this.deadLetters.push(`${topic}: ${JSON.stringify(d.headers)}`);
        await handler(batch);
      },
      options,
    );
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  stop(): Promise<void> {
    return this.inner.stop();
  }

  /** Messages published but not yet handled, summed over the subscriptions. */
  get pending(): number {
    let n = 0;
    for (const s of this.subscriptions) n += Math.max(0, (this.published.get(s.topic) ?? 0) - s.base - s.handled);
    return n;
  }

  /**
   * Resolves once every subscriber has handled everything published so far, including what the
   * handlers published in turn. Rejects after `timeoutMs` (a message that went to a DLQ never settles).
   */
  settled(timeoutMs = 30_000): Promise<void> {
    if (this.deadLetters.length > 0) return Promise.reject(new Error(`dead letters, the pipeline can never settle: ${this.deadLetters.join('; ')}`));
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        reject(new Error(`the pipeline did not settle within ${timeoutMs} ms: ${this.pending} message(s) not handled`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(done);
    });
  }

  private count(topic: string, n: number): void {
    this.published.set(topic, (this.published.get(topic) ?? 0) + n);
  }

  private counting<P>(topic: string, handler: BatchHandler<P>): BatchHandler<P> {
    const counted: Counted = { topic, base: this.published.get(topic) ?? 0, handled: 0 };
    this.subscriptions.push(counted);
    return async (batch) => {
      await handler(batch);
      counted.handled += batch.length;
      if (this.waiters.length > 0 && this.pending === 0) {
        const waiters = this.waiters;
        this.waiters = [];
        // After the handler's own continuation: whatever it does next is part of this round.
        setImmediate(() => {
          if (this.pending === 0) for (const w of waiters) w();
          else this.waiters.push(...waiters);
        });
      }
    };
  }
}
