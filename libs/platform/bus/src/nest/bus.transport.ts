/**
 * A NestJS custom transport strategy over the Bus port (DESIGN §3 "Handlers do not know which transport
 * carries them"): `@EventPattern('wayfinder.steps.v1')` handlers run the same on the in-process bus and
 * on Kafka. Each pattern becomes a subscription of the service's consumer group; messages of a batch go
 * to the handler one by one, in order, and a handler error (Nest turns it into an error Observable)
 * rejects the batch so the bus retries it and never commits it. `<topic>.dlq` patterns get the raw bytes.
 */
import { EventPattern, Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import { TOPICS, type TopicName } from '@wayfinder/contracts';
import { isObservable, lastValueFrom } from 'rxjs';
import type { Bus, Delivered } from '../bus';
import { BusBatchContext, BusContext } from './bus.context';

export interface BusTransportOptions {
  /** The consumer group of this service (every pattern is consumed in it). */
  readonly groupId: string;
  readonly maxBatchSize?: number;
  /** Whether close() also stops the bus (default true; false when the bus is shared with other code). */
  readonly stopBusOnClose?: boolean;
  /**
   * This instance's id, when several instances of the service share its group (distributed mode). The
   * compacted topics (maps, policies) are then read whole by every instance, from the beginning, in a
   * group of its own (`<groupId>.<instanceId>`): each instance needs every tenant's policy and every
   * task's map, not the share of partitions the service's group would give it.
   */
  readonly instanceId?: string;
}

type Listener = (...args: unknown[]) => void;

const BATCH = 'wayfinderBatch';

/**
 * `@BatchEventPattern(topic)`: the handler gets the payloads of a whole batch (one partition, in order)
 * at once, with a BusBatchContext. For handlers that amortize I/O over a batch (the detector worker
 * restores and persists state once per batch); resolving lets the bus commit the batch.
 */
export function BatchEventPattern(topic: string): MethodDecorator {
  return EventPattern(topic, { [BATCH]: true });
}

async function settle(result: unknown): Promise<void> {
  const value = await result;
  if (isObservable(value)) await lastValueFrom(value, { defaultValue: undefined });
}

export class BusTransport extends Server implements CustomTransportStrategy {
  private readonly listeners = new Map<string, Listener[]>();
  /** Every handler of a pattern, in registration order (see addHandler). */
  private readonly handlerLists = new Map<string, MessageHandler[]>();

  constructor(
    private readonly bus: Bus,
    private readonly options: BusTransportOptions,
  ) {
    super();
  }

  async listen(callback: (...optionalParams: unknown[]) => unknown): Promise<void> {
    try {
      for (const pattern of this.messageHandlers.keys()) this.subscribePattern(pattern);
      await this.bus.start();
      this.emit('status', 'connected');
      callback();
    } catch (error) {
      this.emit('error', error);
      callback(error);
    }
  }

  async close(): Promise<void> {
    if (this.options.stopBusOnClose ?? true) await this.bus.stop();
    this.emit('status', 'disconnected');
  }

  on<EventKey extends string = string, EventCallback = Listener>(event: EventKey, callback: EventCallback): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), callback as Listener]);
  }

  /**
   * Nest chains the event handlers of one pattern (`handler.next`) and its wrapper calls the next one with
   * the same arguments. A batch handler and a per-message handler cannot share arguments, so handlers are
   * kept in a list instead and called one by one, each with what it expects.
   */
  override addHandler(pattern: unknown, callback: MessageHandler, isEventHandler = false, extras: Record<string, unknown> = {}): void {
    callback.isEventHandler = isEventHandler;
    callback.extras = extras;
    const key = this.normalizePattern(pattern as string);
    this.handlerLists.set(key, [...(this.handlerLists.get(key) ?? []), callback]);
    if (!this.messageHandlers.has(key)) this.messageHandlers.set(key, callback);
  }

  unwrap<T>(): T {
    return this.bus as T;
  }

  private subscribePattern(pattern: string): void {
    const broadcast = this.options.instanceId !== undefined && pattern in TOPICS && TOPICS[pattern as TopicName].compacted;
    const subscribeOptions = broadcast
      ? { groupId: `${this.options.groupId}.${this.options.instanceId}`, maxBatchSize: this.options.maxBatchSize, fromBeginning: true }
      : { groupId: this.options.groupId, maxBatchSize: this.options.maxBatchSize };
    // Work that succeeded before a later message failed is not handed to Nest again when the bus retries
    // the batch: handlers see a message twice only across a process restart. Keys are per handler.
    const done = new Set<string>();
    const handle = async (batch: Delivered<unknown>[]) => {
      const keys: string[] = [];
      let index = 0;
      for (const handler of this.handlerLists.get(pattern) ?? []) {
        index++;
        if (handler.extras?.[BATCH] === true) {
          const key = `${index}#${batch[0].partition}/${batch[0].offset}..${batch[batch.length - 1].offset}`;
          keys.push(key);
          if (done.has(key)) continue;
          await settle(handler(batch.map((d) => d.payload), new BusBatchContext(batch)));
          done.add(key);
          continue;
        }
        for (const delivered of batch) {
          const key = `${index}#${delivered.partition}/${delivered.offset}`;
          keys.push(key);
          if (done.has(key)) continue;
          await settle(handler(delivered.payload, new BusContext(delivered)));
          done.add(key);
        }
      }
      for (const key of keys) done.delete(key);
    };
    if (pattern in TOPICS) {
      this.bus.subscribe(pattern as TopicName, handle, subscribeOptions);
    } else if (pattern.endsWith('.dlq')) {
      this.bus.subscribeRaw(pattern, handle, subscribeOptions);
    } else {
      throw new Error(`BusTransport: "${pattern}" is neither a topic of the registry nor a .dlq topic`);
    }
  }

  private emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
}
