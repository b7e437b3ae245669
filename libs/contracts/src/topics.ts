/**
 * The topic registry (DESIGN §3): names, keys, partitions, compaction and DLQ names, and a typed map
 * from topic to payload so that publishing the wrong payload on a topic is a compile error.
 */
import { z } from 'zod';
import { CognitiveMap, TaskSpec } from './task';
import { Correction, DetectedStep, Deviation, Escalation, LocalizedStep } from './navigation';
import { StepEvent } from './step';
import { fastStepEvent } from './step-fast-path';
import { TenantPolicy } from './policy';
import { Suppression } from './operations';
import { INTERNAL_CHECKS } from './internal-check';
import { AgentControl } from './control';
import { AnchorChange } from './anchor-change';
import { DelegationSignal } from './delegation';
import { OtlpTraceBatch } from './otlp';

export type KeyKind = 'agent' | 'task' | 'tenant' | 'trace';

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
  // Separate services only: a localized step and its deviations, from the detector worker to the correction engine.
  'wayfinder.detected.v1': topic({ name: 'wayfinder.detected.v1', schema: DetectedStep, key: 'agent', partitions: 12, compacted: false, retentionMs: 1 * DAY, source: 'internal' }),
  'wayfinder.corrections.v1': topic({ name: 'wayfinder.corrections.v1', schema: Correction, key: 'agent', partitions: 12, compacted: false, retentionMs: 7 * DAY, source: 'internal' }),
  'wayfinder.escalations.v1': topic({ name: 'wayfinder.escalations.v1', schema: Escalation, key: 'agent', partitions: 3, compacted: false, retentionMs: 30 * DAY, source: 'internal' }),
  // Corrections a shadow-mode tenant's agents would have received (never sent to them).
  'wayfinder.would-send.v1': topic({ name: 'wayfinder.would-send.v1', schema: Correction, key: 'agent', partitions: 12, compacted: false, retentionMs: 7 * DAY, source: 'internal' }),
  'wayfinder.suppressions.v1': topic({ name: 'wayfinder.suppressions.v1', schema: Suppression, key: 'agent', partitions: 1, compacted: true, retentionMs: -1, source: 'edge' }),
  'wayfinder.policies.v1': topic({ name: 'wayfinder.policies.v1', schema: TenantPolicy, key: 'tenant', partitions: 1, compacted: true, retentionMs: -1, source: 'edge' }),
  // Same partition count and key as the detected steps: a control reaches the
  // correction-engine instance that holds the agent's ladder (co-partitioned assignment).
  'wayfinder.controls.v1': topic({ name: 'wayfinder.controls.v1', schema: AgentControl, key: 'agent', partitions: 12, compacted: false, retentionMs: 7 * DAY, source: 'edge' }),
  // Dynamic anchors: proposals (state-localizer) and decisions (gateway) for the task-parser to apply.
  // cross_agent_cycle: delegation edges and progress per tenant (keyed by tenant: one consumer holds a tenant's graph).
  'wayfinder.delegations.v1': topic({ name: 'wayfinder.delegations.v1', schema: DelegationSignal, key: 'tenant', partitions: 6, compacted: false, retentionMs: 1 * DAY, source: 'internal' }),
  'wayfinder.anchor-changes.v1': topic({ name: 'wayfinder.anchor-changes.v1', schema: AnchorChange, key: 'task', partitions: 6, compacted: false, retentionMs: 7 * DAY, source: 'edge' }),
  // Raw OTLP spans per trace, from the OTLP receiver to the otlp-normalizer (DESIGN §12).
  'wayfinder.otlp.v1': topic({ name: 'wayfinder.otlp.v1', schema: OtlpTraceBatch, key: 'trace', partitions: 12, compacted: false, retentionMs: 1 * DAY, source: 'edge' }),
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

/** The message key of a payload on its topic: `tenantId:agentId`, `tenantId:taskId`, `tenantId:traceId` or `tenantId`. */
export function keyOf<T extends TopicName>(topicName: T, payload: PayloadOf<T>): string {
  const spec = TOPICS[topicName];
  const p = payload as { tenantId: string; agentId?: string; taskId?: string; traceId?: string; step?: { agentId: string } };
  switch (spec.key) {
    case 'tenant':
      return p.tenantId;
    case 'task':
      return `${p.tenantId}:${p.taskId}`;
    case 'trace':
      return `${p.tenantId}:${p.traceId}`;
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
  if (topicName === 'wayfinder.steps.v1') {
    // The common steps are checked by hand (step-fast-path.ts); anything else, and every error, by the schema.
    const step = fastStepEvent(raw);
    if (step) return { ok: true, value: step as PayloadOf<T> };
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
