/** Records as the recorder writes them, for the store contract and the query tests. */
import type { CorrectionRecord, DeviationRecord, EscalationRecord, StepSummary } from './history-record';

export const T0 = Date.parse('2026-03-01T10:00:00.000Z');

export function at(ms: number): string {
  return new Date(ms).toISOString();
}

interface Subject {
  tenantId: string;
  agentId: string;
  taskId?: string;
}

export function stepRecord(s: Subject, seq: number, ms: number, extra: Partial<StepSummary> = {}): StepSummary {
  return {
    id: `step:${s.agentId}-${seq}`, kind: 'step', tenantId: s.tenantId, agentId: s.agentId, taskId: s.taskId ?? 'task-1', runId: null, ts: at(ms),
    seq, stepKind: 'action', tool: 'search', argsHash: `h${seq}`, milestoneId: 'm1', progress: 0, completed: [], method: 'signal', note: null, tokens: null, ...extra,
  };
}

export function deviationRecord(s: Subject, n: number, ms: number, extra: Partial<DeviationRecord> = {}): DeviationRecord {
  return {
    id: `deviation:d-${s.agentId}-${n}`, kind: 'deviation', tenantId: s.tenantId, agentId: s.agentId, taskId: s.taskId ?? 'task-1', runId: null, ts: at(ms),
    deviationId: `d-${s.agentId}-${n}`, detector: 'generic_repeat', level: 'warning', count: 3, atSeq: n, loopStartSeq: Math.max(0, n - 2),
    message: 'search called 3 times with the same arguments', tool: 'search', argsHash: 'abc', ...extra,
  };
}

export function correctionRecord(s: Subject, n: number, ms: number, extra: Partial<CorrectionRecord> = {}): CorrectionRecord {
  return {
    id: `correction:c-${s.agentId}-${n}`, kind: 'correction', tenantId: s.tenantId, agentId: s.agentId, taskId: s.taskId ?? 'task-1', runId: null, ts: at(ms),
    correctionId: `c-${s.agentId}-${n}`, action: 'hint', severity: 'mild', atSeq: n, deviationIds: [`d-${s.agentId}-${n}`], summary: 'Stop repeating search', ...extra,
  };
}

export function escalationRecord(s: Subject, n: number, ms: number): EscalationRecord {
  return {
    id: `escalation:e-${s.agentId}-${n}`, kind: 'escalation', tenantId: s.tenantId, agentId: s.agentId, taskId: s.taskId ?? 'task-1', runId: null, ts: at(ms),
    escalationId: `e-${s.agentId}-${n}`, reason: 'loop persisted after hint, rollback and replan', loopStartSeq: 2, lastVerifiedMilestoneId: null, deviations: 4, correctionsTried: ['hint', 'rollback', 'replan'],
  };
}
