/**
 * Producer lanes, shared by both Kafka adapters (DESIGN §14 "Producer lanes"): one producer per topic
 * published, each with its outbox and one request in flight, so a topic never waits behind another
 * topic's request; and a spare producer, kept ready, that the next new lane takes so that its first
 * publish does not wait for a connect. The adapters keep the flushing (their clients' send calls differ).
 */
import { sleep } from './wire-size';

export interface Lane<O, P> {
  readonly outbox: O[];
  flushing: boolean;
  producer: P | null;
}

export interface ProducerLanesOptions<P> {
  /** A new producer (connecting, or to be connected by its first send). */
  make(): P;
  /** Told of every producer made: call `lost` when it turns out unusable, so that the next request makes another. */
  watch(producer: P, lost: () => void): void;
}

export class ProducerLanes<O extends { readonly bytes: number }, P> {
  private readonly lanes = new Map<string, Lane<O, P>>();
  private spare: P | null = null;

  constructor(private readonly options: ProducerLanesOptions<P>) {}

  /** The topic's lane (physical topic name), made on first use. */
  of(topic: string): Lane<O, P> {
    let lane = this.lanes.get(topic);
    if (!lane) {
      lane = { outbox: [], flushing: false, producer: null };
      this.lanes.set(topic, lane);
    }
    return lane;
  }

  /** The lane's producer: the spare (then a new spare is made), or a new one. */
  producerOf(lane: Lane<O, P>): P {
    if (!lane.producer) {
      const producer = this.spare ?? this.options.make();
      this.spare = null;
      lane.producer = producer;
      this.options.watch(producer, () => {
        if (lane.producer === producer) lane.producer = null;
      });
      this.keepSpare();
    }
    return lane.producer;
  }

  /** Makes a spare unless one is waiting; returns it. */
  keepSpare(): P {
    if (!this.spare) {
      const spare = this.options.make();
      this.spare = spare;
      this.options.watch(spare, () => {
        if (this.spare === spare) this.spare = null;
      });
    }
    return this.spare;
  }

  /** Waits until every lane has sent what it holds, then forgets the lanes and the spare and returns their producers. */
  async drain(): Promise<P[]> {
    const lanes = [...this.lanes.values()];
    while (lanes.some((lane) => lane.flushing || lane.outbox.length > 0)) await sleep(5);
    const producers = [this.spare, ...lanes.map((lane) => lane.producer)].filter((p): p is P => p !== null);
    this.spare = null;
    this.lanes.clear();
    return producers;
  }
}
