/**
 * For tests only: an escalation notifier whose dead letters are recorded instead of published, and a
 * way to wait until every tenant's lane has sent or given up what it was handed.
 */
import type { EgressPolicy } from '@wayfinder/config';
import { DLQ_HEADERS, type Escalation } from '@wayfinder/contracts';
import type { PolicyBook } from '@wayfinder/service-core';
import { InMemoryDeliveryLog } from './delivery-log';
import { EscalationNotifierHandler } from './escalation-notifier.handler';
import type { LaneSettings } from './tenant-delivery-lanes';

export interface RecordedDeadLetter {
  readonly topic: string;
  readonly escalation: Escalation;
  readonly reason: string;
  readonly attempts: number;
}

export interface NotifierUnderTest {
  readonly handler: EscalationNotifierHandler;
  readonly deadLetters: RecordedDeadLetter[];
  /** Hands the batch over, then waits until every lane is empty. */
  deliver(batch: Escalation[]): Promise<void>;
}

export function notifierUnderTest(policies: PolicyBook, egress: EgressPolicy, options: { timeoutMs?: number; lanes?: Partial<LaneSettings> } = {}): NotifierUnderTest {
  const deadLetters: RecordedDeadLetter[] = [];
  const bus = {
    publishRaw: async (topic: string, _key: string | null, value: Buffer | string, headers: Readonly<Record<string, string>> = {}) => {
      deadLetters.push({ topic, escalation: JSON.parse(value.toString()) as Escalation, reason: headers[DLQ_HEADERS.error] ?? '', attempts: Number(headers[DLQ_HEADERS.attempts]) });
    },
  };
  const handler = new EscalationNotifierHandler(policies, new InMemoryDeliveryLog(), options.timeoutMs ?? 2_000, egress, bus, { maxAttempts: 1, ...options.lanes });
  return {
    handler,
    deadLetters,
    deliver: async (batch) => {
      await handler.onEscalations(batch);
      await handler.lanes.idle();
    },
  };
}
