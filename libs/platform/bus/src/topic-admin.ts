/**
 * Explicit topic creation (STYLE "Services": never auto-creation): every topic of the TOPICS registry
 * and its `.dlq`, with partitions, compaction and retention from the registry. Idempotent: topics that
 * exist are left as they are. `wayfinder topics create` calls `createTopics`.
 */
import { DLQ_PARTITIONS, dlqTopicOf, TOPIC_NAMES, TOPICS, type TopicName } from '@wayfinder/contracts';
import { securityOf } from './kafka.bus';
import { Kafka, logLevel, type Admin, type ITopicConfig } from 'kafkajs';

export const DLQ_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface CreateTopicsOptions {
  /** Use this partition count for every non-DLQ topic (small local brokers, tests). */
  readonly partitionsOverride?: number;
  /** TLS and SASL (kafkajs `ssl`/`sasl`; see kafkaSecurity of @wayfinder/config). */
  readonly security?: { readonly ssl?: unknown; readonly sasl?: unknown };
  /** Namespace prepended to every name (see KafkaBusOptions.topicPrefix). */
  readonly topicPrefix?: string;
  /** Create only these topics (and their DLQs). Default: all of TOPICS. */
  readonly only?: readonly TopicName[];
  readonly replicationFactor?: number;
  readonly clientId?: string;
}

export interface CreateTopicsResult {
  readonly created: string[];
  readonly existing: string[];
}

/** The topics to create, with their configuration; pure, so it is checked without a broker. */
export function topicPlan(options: CreateTopicsOptions = {}): ITopicConfig[] {
  const prefix = options.topicPrefix ?? '';
  const replicationFactor = options.replicationFactor ?? -1;
  const plan: ITopicConfig[] = [];
  for (const name of options.only ?? TOPIC_NAMES) {
    const spec = TOPICS[name];
    plan.push({
      topic: prefix + spec.name,
      numPartitions: options.partitionsOverride ?? spec.partitions,
      replicationFactor,
      configEntries: spec.compacted
        ? [{ name: 'cleanup.policy', value: 'compact' }]
        : [
            { name: 'cleanup.policy', value: 'delete' },
            { name: 'retention.ms', value: String(spec.retentionMs) },
          ],
    });
    plan.push({
      topic: prefix + dlqTopicOf(spec.name),
      numPartitions: DLQ_PARTITIONS,
      replicationFactor,
      configEntries: [
        { name: 'cleanup.policy', value: 'delete' },
        { name: 'retention.ms', value: String(DLQ_RETENTION_MS) },
      ],
    });
  }
  return plan;
}

export async function createTopics(brokers: readonly string[], options: CreateTopicsOptions = {}): Promise<CreateTopicsResult> {
  const kafka = new Kafka({ clientId: options.clientId ?? 'wayfinder-topics', brokers: [...brokers], ...securityOf(options.security), logLevel: logLevel.ERROR });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const plan = topicPlan(options);
    const present = new Set(await admin.listTopics());
    const missing = plan.filter((t) => !present.has(t.topic));
    if (missing.length > 0) {
      // Resolves false instead of failing when another process created some of them meanwhile. While
      // other clients create topics on the same broker, kafkajs' wait for leaders can fail with
      // UNKNOWN_TOPIC_OR_PARTITION although the creation went through: the topics are then polled
      // until every partition has a leader instead.
      await admin.createTopics({ topics: missing, waitForLeaders: true, timeout: 30_000 }).catch(async (error: Error) => {
        if (!/does not host this topic-partition|UNKNOWN_TOPIC_OR_PARTITION/i.test(error.message)) throw error;
      });
      await waitForLeaders(admin, missing.map((t) => t.topic), 30_000);
    }
    return {
      created: missing.map((t) => t.topic),
      existing: plan.filter((t) => present.has(t.topic)).map((t) => t.topic),
    };
  } finally {
    await admin.disconnect();
  }
}

async function waitForLeaders(admin: Admin, topics: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const metadata = await admin.fetchTopicMetadata({ topics }).catch(() => undefined);
    const ready = metadata && metadata.topics.length === topics.length && metadata.topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
    if (ready) return;
    if (Date.now() > deadline) throw new Error(`topics have no leader after ${timeoutMs} ms: ${topics.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
