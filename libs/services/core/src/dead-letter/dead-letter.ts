/**
 * Dead-lettering of input that passed the schema but cannot be used (a task whose milestones form a
 * cycle, say): the original payload goes to `<topic>.dlq` with the same headers the bus uses for schema
 * failures, so one DLQ consumer sees every reason.
 */
import { DLQ_HEADERS, dlqTopicOf } from '@wayfinder/contracts';
import type { Bus, Delivered } from '@wayfinder/bus';

export async function deadLetter(bus: Bus, delivered: Delivered<unknown>, error: string): Promise<void> {
  await bus.publishRaw(dlqTopicOf(delivered.topic), delivered.key, JSON.stringify(delivered.payload), {
    [DLQ_HEADERS.sourceTopic]: delivered.topic,
    [DLQ_HEADERS.sourcePartition]: String(delivered.partition),
    [DLQ_HEADERS.sourceOffset]: delivered.offset,
    [DLQ_HEADERS.error]: error,
    [DLQ_HEADERS.timestamp]: new Date().toISOString(),
    [DLQ_HEADERS.attempts]: '1',
  });
}
