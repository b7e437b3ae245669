/**
 * Counts dead-lettered messages (`wayfinder.dlq.messages` by source topic) by reading every `<topic>.dlq`
 * in a consumer group of its own. Reading the DLQ topics, rather than hooking the writers, counts every
 * path that dead-letters — schema failures inside the bus adapters, poison messages after retries,
 * tasks refused by the task parser — in whichever process wrote them, exactly once per group.
 */
import { dlqTopicOf, TOPIC_NAMES, type TopicName } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import type { NavigationMetrics } from './navigation.metrics';

export interface DeadLetterMonitorOptions {
  /** Default `wayfinder.telemetry.dlq`; one process per deployment need run it (the group shares the work). */
  readonly groupId?: string;
  /** Source topics whose DLQ is watched (default: every topic of the registry). */
  readonly topics?: readonly TopicName[];
}

/** Subscribes (call before `bus.start()`). New groups start at the end: history is not re-counted. */
export function monitorDeadLetters(bus: Bus, metrics: NavigationMetrics, options: DeadLetterMonitorOptions = {}): void {
  const groupId = options.groupId ?? 'wayfinder.telemetry.dlq';
  for (const topic of options.topics ?? TOPIC_NAMES) {
    bus.subscribeRaw(dlqTopicOf(topic), async (batch) => metrics.dlqMessage(topic, batch.length), { groupId, fromBeginning: false });
  }
}
