/**
 * Consumer lag for `wayfinder.consumer.lag` (DESIGN §8): per consumer group and topic, the messages
 * between the group's committed offsets and the partitions' high watermarks, polled from the broker by
 * an admin client on a timer (never on the hot path). The gauge reports the latest poll; a failed poll
 * keeps the previous readings and is logged once per failure streak.
 */
import { Kafka, logLevel, type Admin, type KafkaConfig } from 'kafkajs';
import type { LagReading } from './navigation.metrics';

export interface KafkaLagMonitorOptions {
  readonly brokers: readonly string[];
  /** TLS and SASL (kafkajs `ssl`/`sasl`; see kafkaSecurity of @wayfinder/config). */
  readonly security?: { readonly ssl?: unknown; readonly sasl?: unknown };
  /** Consumer groups and the logical topics each consumes. */
  readonly groups: ReadonlyArray<{ readonly groupId: string; readonly topics: readonly string[] }>;
  /** Same prefix as KafkaBusOptions.topicPrefix (applied to topics and group ids on the broker). */
  readonly topicPrefix?: string;
  readonly intervalMs?: number;
  readonly log?: (message: string) => void;
  /** The admin client (tests); default a kafkajs admin on `brokers`. */
  readonly admin?: Pick<Admin, 'connect' | 'disconnect' | 'fetchOffsets' | 'fetchTopicOffsets'>;
}

/** Lag of one group on one topic: committed offsets vs high watermarks; uncommitted partitions count from low. */
export function lagOf(
  committed: ReadonlyArray<{ partition: number; offset: string }>,
  watermarks: ReadonlyArray<{ partition: number; high: string; low: string }>,
): number {
  const byPartition = new Map(committed.map((c) => [c.partition, Number(c.offset)]));
  let lag = 0;
  for (const { partition, high, low } of watermarks) {
    const offset = byPartition.get(partition);
    const from = offset === undefined || offset < 0 ? Number(low) : offset;
    lag += Math.max(0, Number(high) - from);
  }
  return lag;
}

export class KafkaLagMonitor {
  private readonly admin: NonNullable<KafkaLagMonitorOptions['admin']>;
  private readonly prefix: string;
  private latest: LagReading[] = [];
  private timer?: NodeJS.Timeout;
  private connected = false;
  private failing = false;
  private stopped = false;
  /** The poll in flight: stop() waits for it, or a connect still under way would outlive stop() and its socket keep the process from exiting. */
  private polling?: Promise<unknown>;

  constructor(private readonly options: KafkaLagMonitorOptions) {
    this.prefix = options.topicPrefix ?? '';
    this.admin = options.admin ?? new Kafka({ clientId: 'wayfinder-lag', brokers: [...options.brokers], ...(options.security as Pick<KafkaConfig, 'ssl' | 'sasl'> | undefined), logLevel: logLevel.NOTHING }).admin();
  }

  /** The latest readings (what NavigationMetrics.observeConsumerLag takes). */
  readings = (): readonly LagReading[] => this.latest;

  async poll(): Promise<readonly LagReading[]> {
    if (!this.connected) {
      await this.admin.connect();
      this.connected = true;
    }
    const readings: LagReading[] = [];
    for (const { groupId, topics } of this.options.groups) {
      const physical = topics.map((t) => this.prefix + t);
      const committed = await this.admin.fetchOffsets({ groupId: this.prefix + groupId, topics: physical });
      for (const [i, topic] of topics.entries()) {
        const watermarks = await this.admin.fetchTopicOffsets(physical[i]);
        const partitions = committed.find((c) => c.topic === physical[i])?.partitions ?? [];
        readings.push({ group: groupId, topic, lag: lagOf(partitions, watermarks) });
      }
    }
    this.latest = readings;
    return readings;
  }

  start(): void {
    const intervalMs = this.options.intervalMs ?? 15_000;
    const tick = () => {
      if (this.stopped || this.polling) return;
      this.polling = this.poll()
        .then(
          () => (this.failing = false),
          (error: Error) => {
            if (!this.failing) this.options.log?.(`consumer lag poll failed: ${error.message}`);
            this.failing = true;
          },
        )
        .finally(() => (this.polling = undefined));
    };
    void tick();
    this.timer = setInterval(() => void tick(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.polling;
    if (this.connected) await this.admin.disconnect();
    this.connected = false;
  }
}
