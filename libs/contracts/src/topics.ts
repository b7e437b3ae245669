/**
 * The topic registry (DESIGN §3): names, keys, partitions, compaction and DLQ names, and a typed map
 * from topic to payload so that publishing the wrong payload on a topic is a compile error.
 */
import { z } from 'zod';
import { CognitiveMap, TaskSpec } from './task';
import { Correction, Deviation, Escalation, LocalizedStep } from './navigation';
import { StepEvent } from './step';
import { TenantPolicy } from './policy';
import { Suppression } from './operations';
import { INTERNAL_CHECKS } from './internal-check';

export type KeyKind = 'agent' | 'task' | 'tenant';

export interface TopicSpec<S extends z.ZodTypeAny = z.ZodTypeAny> {
  readonly name: string;
  readonly schema: S;
  readonly key: KeyKind;
  readonly partitions: number;
  readonly compacted: boolean;
  /** Retention for non-compacted topics, in ms. */
  readonly retentionMs: number;
  /**
   * `edge`: written by agents and platforms, validated in full. `internal`: written by Wayfinder services
   * from validated input; consumers check the envelope only (see internal-check.ts).
   */
  readonly source: 'edge' | 'internal';
}

const DAY = 24 * 60 * 60 * 1000;

function topic<S extends z.ZodTypeAny>(spec: TopicSpec<S>): TopicSpec<S> {
  return spec;
}

export const TOPICS = {
  'wayfinder.tasks.v1': topic({ name: 'wayfinder.tasks.v1', schema: TaskSpec, key: 'task', partitions: 6, compacted: false, retentionMs: 7 * DAY, source: 'edge' }),
  'wayfinder.maps.v1': topic({ name: 'wayfinder.maps.v1', schema: CognitiveMap, key: 'task', partitions: 6, compacted: true, retentionMs: -1, source: 'internal' }),
  'wayfinder.steps.v1': topic({ name: 'wayfinder.steps.v1', schema: StepEvent, key: 'agent', partitions: 12, compacted: false, retentionMs: 3 * DAY, source: 'edge' }),
  'wayfinder.localized.v1': topic({ name: 'wayfinder.localized.v1', schema: LocalizedStep, key: 'agent', partitions: 12, compacted: false, retentionMs: 1 * DAY, source: 'internal' }),
  'wayfinder.deviations.v1': topic({ name: 'wayfinder.deviations.v1', schema: Deviation, key: 'agent', partitions: 12, compacted: false, retentionMs: 7 * DAY, source: 'internal' }),
  'wayfinder.corrections.v1': topic({ name: 'wayfinder.corrections.v1', schema: Correction, key: 'agent', partitions: 12, compacted: false, retentionMs: 7 * DAY, source: 'internal' }),
  'wayfinder.escalations.v1': topic({ name: 'wayfinder.escalations.v1', schema: Escalation, key: 'agent', partitions: 3, compacted: false, retentionMs: 30 * DAY, source: 'internal' }),
  // Corrections a shadow-mode tenant's agents would have received (never sent to them).
  'wayfinder.would-send.v1': topic({ name: 'wayfinder.would-send.v1', schema: Correction, key: 'agent', partitions: 12, compacted: false, retentionMs: 7 * DAY, source: 'internal' }),
  'wayfinder.suppressions.v1': topic({ name: 'wayfinder.suppressions.v1', schema: Suppression, key: 'agent', partitions: 1, compacted: true, retentionMs: -1, source: 'edge' }),
  'wayfinder.policies.v1': topic({ name: 'wayfinder.policies.v1', schema: TenantPolicy, key: 'tenant', partitions: 1, compacted: true, retentionMs: -1, source: 'edge' }),
} as const;

export type TopicName = keyof typeof TOPICS;
export type PayloadOf<T extends TopicName> = z.infer<(typeof TOPICS)[T]['schema']>;
/** Input shape (before defaults and truncation) accepted by `parse` for a topic. */
export type InputOf<T extends TopicName> = z.input<(typeof TOPICS)[T]['schema']>;
export const TOPIC_NAMES = Object.keys(TOPICS) as TopicName[];

export const DLQ_SUFFIX = '.dlq';
export function dlqTopicOf(topicName: string): string {
  return `${topicName}${DLQ_SUFFIX}`;
}
export const DLQ_PARTITIONS = 1;

/** Headers set on every dead-lettered message (DESIGN §3, STYLE "Handlers"). */
export const DLQ_HEADERS = {
  sourceTopic: 'wf-dlq-source-topic',
  sourcePartition: 'wf-dlq-source-partition',
  sourceOffset: 'wf-dlq-source-offset',
  error: 'wf-dlq-error',
  timestamp: 'wf-dlq-timestamp',
  attempts: 'wf-dlq-attempts',
} as const;

/** The message key of a payload on its topic: `tenantId:agentId`, `tenantId:taskId` or `tenantId`. */
export function keyOf<T extends TopicName>(topicName: T, payload: PayloadOf<T>): string {
  const spec = TOPICS[topicName];
  const p = payload as { tenantId: string; agentId?: string; taskId?: string; step?: { agentId: string } };
  switch (spec.key) {
    case 'tenant':
      return p.tenantId;
    case 'task':
      return `${p.tenantId}:${p.taskId}`;
    case 'agent':
      return `${p.tenantId}:${p.agentId ?? p.step?.agentId}`;
  }
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Validates a payload for a topic; the error names the bad fields (`action.tool: must not be empty`).
 * Internal topics get the envelope check unless `full` is asked for.
 */
export function parsePayload<T extends TopicName>(topicName: T, raw: unknown, options: { full?: boolean } = {}): ParseResult<PayloadOf<T>> {
  if (TOPICS[topicName].source === 'internal' && !options.full) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, error: '(root): must be a JSON object' };
    const problem = INTERNAL_CHECKS[topicName](raw as Record<string, unknown>);
    return problem ? { ok: false, error: problem } : { ok: true, value: raw as PayloadOf<T> };
  }
  const result = TOPICS[topicName].schema.safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: formatZodError(result.error) };
}

export function formatZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}
