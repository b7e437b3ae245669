/**
 * Validation of events on internal topics (maps, localized steps, deviations, corrections, escalations).
 * Those are written only by Wayfinder services from input that was fully validated where it entered
 * (steps, tasks and policies: the edge). Re-running the full schema on every hop cost more than the
 * navigation itself (about 90 µs per localized step with zod), so internal hops check the envelope and
 * the fields consumers key on; anything else wrong still goes to the DLQ, and consumers tolerate the rest.
 */
import { STEP_KINDS } from './step';

type Check = (value: Record<string, unknown>) => string | null;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 128;
const isSeq = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function requireIds(value: Record<string, unknown>, fields: string[], prefix = ''): string | null {
  for (const f of fields) if (!isId(value[f])) return `${prefix}${f}: must be a non-empty id of at most 128 characters`;
  return null;
}

function envelope(schema: string): Check {
  return (value) => {
    if (value.schema !== schema) return `schema: expected '${schema}'`;
    if (typeof value.ts !== 'string') return 'ts: must be an ISO-8601 date-time';
    return requireIds(value, ['eventId', 'tenantId']);
  };
}

function stepShape(step: unknown): string | null {
  if (!isObject(step)) return 'step: must be an object';
  const ids = requireIds(step, ['eventId', 'tenantId', 'agentId', 'taskId'], 'step.');
  if (ids) return ids;
  if (!isSeq(step.seq)) return 'step.seq: must be a non-negative integer';
  if (!(STEP_KINDS as readonly unknown[]).includes(step.kind)) return `step.kind: must be one of ${STEP_KINDS.join(', ')}`;
  if (!isObject(step[step.kind as string])) return `step.${String(step.kind)}: must be an object`;
  return null;
}

const agentEvent = (schema: string, more: Check): Check => (value) =>
  envelope(schema)(value) ?? requireIds(value, ['agentId', 'taskId']) ?? more(value);

export const INTERNAL_CHECKS: Record<string, Check> = {
  'wayfinder.maps.v1': (v) =>
    envelope('wayfinder.map.v1')(v) ?? requireIds(v, ['taskId']) ?? (Array.isArray(v.milestones) && typeof v.version === 'number' ? null : 'milestones, version: required'),
  'wayfinder.localized.v1': (v) =>
    envelope('wayfinder.localized.v1')(v) ?? stepShape(v.step) ?? (isObject(v.position) && Array.isArray(v.position.completed) ? null : 'position: must be an object with completed[]'),
  'wayfinder.detected.v1': (v) =>
    envelope('wayfinder.detected.v1')(v) ?? requireIds(v, ['agentId']) ?? (v.step === undefined ? null : stepShape(v.step)) ?? (Array.isArray(v.deviations) ? null : 'deviations: must be an array'),
  'wayfinder.deviations.v1': agentEvent('wayfinder.deviation.v1', (v) =>
    typeof v.detector === 'string' && (v.level === 'warning' || v.level === 'critical') && isSeq(v.atSeq) && isSeq(v.loopStartSeq) && isObject(v.evidence)
      ? null
      : 'detector, level, atSeq, loopStartSeq, evidence: required'),
  'wayfinder.corrections.v1': agentEvent('wayfinder.correction.v1', (v) =>
    typeof v.action === 'string' && isObject(v[v.action]) && Array.isArray(v.deviationIds) ? null : 'action and its body, deviationIds: required'),
  'wayfinder.would-send.v1': agentEvent('wayfinder.correction.v1', (v) =>
    typeof v.action === 'string' && isObject(v[v.action]) && Array.isArray(v.deviationIds) ? null : 'action and its body, deviationIds: required'),
  'wayfinder.escalations.v1': agentEvent('wayfinder.escalation.v1', (v) =>
    Array.isArray(v.deviations) && Array.isArray(v.correctionsTried) ? null : 'deviations, correctionsTried: required'),
  'wayfinder.delegations.v1': agentEvent('wayfinder.delegation.v1', (v) =>
    (v.kind === 'progress' || (v.kind === 'delegation' && isId(v.to))) && isSeq(v.seq) ? null : 'kind, seq (and to for a delegation): required'),
};
