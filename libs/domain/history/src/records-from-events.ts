/** The history records of navigation's events, as the recorder writes them. Pure and deterministic. */
import type { Correction, Deviation, Escalation, LocalizedStep } from '@wayfinder/contracts';
import { argsHash, hashHex } from '@wayfinder/detection';
import { DETAIL_CHARS, type CorrectionRecord, type DeviationRecord, type EscalationRecord, type StepDetail, type StepSummary } from './history-record';

/** Text or JSON cut to DETAIL_CHARS, with a marker saying it was cut. */
export function clip(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  return text.length <= DETAIL_CHARS ? text : `${text.slice(0, DETAIL_CHARS)}… (${text.length} chars)`;
}

function detailOf(step: LocalizedStep['step']): StepDetail {
  const detail: { -readonly [K in keyof StepDetail]: StepDetail[K] } = {};
  switch (step.kind) {
    case 'action':
      detail.input = clip(step.action.args);
      break;
    case 'observation':
      if (step.observation.content !== undefined) detail.output = clip(step.observation.content);
      if (step.observation.error !== undefined) detail.error = clip(step.observation.error);
      break;
    case 'message':
      detail.output = clip(step.message.text);
      break;
    case 'milestone':
      if (step.milestone.evidence !== undefined) detail.output = clip(step.milestone.evidence);
      break;
    case 'plan':
      detail.output = clip(step.plan.subgoals.map((g) => g.text));
      break;
    default:
      break;
  }
  if (step.usage?.latencyMs !== undefined) detail.latencyMs = step.usage.latencyMs;
  return detail;
}

export function stepSummaryOf({ step, position }: LocalizedStep): StepSummary {
  let tool: string | null = null;
  let args: string | null = null;
  let note: string | null = null;
  switch (step.kind) {
    case 'action':
      tool = step.action.tool;
      args = hashHex(argsHash(step.action.tool, step.action.args));
      break;
    case 'observation':
      tool = step.observation.tool;
      note = step.observation.ok === false ? 'failed' : null;
      break;
    case 'milestone':
      note = `${step.milestone.id} ${step.milestone.status}`;
      break;
    case 'message':
      note = step.message.type ?? step.message.role;
      break;
    default:
      note = null;
  }
  const tokens = step.usage ? (step.usage.inputTokens ?? 0) + (step.usage.outputTokens ?? 0) : null;
  return {
    id: `step:${step.eventId}`, kind: 'step', tenantId: step.tenantId, agentId: step.agentId, taskId: step.taskId, runId: step.runId ?? null, ts: step.ts,
    seq: step.seq, stepKind: step.kind, tool, argsHash: args, milestoneId: position.milestoneId, progress: position.progress, completed: position.completed,
    method: position.method, note, tokens, detail: detailOf(step),
  };
}

export function deviationRecordOf(d: Deviation): DeviationRecord {
  const tool = typeof d.evidence.tool === 'string' ? d.evidence.tool : null;
  const args = typeof d.evidence.argsHash === 'string' ? d.evidence.argsHash : null;
  return {
    id: `deviation:${d.eventId}`, kind: 'deviation', tenantId: d.tenantId, agentId: d.agentId, taskId: d.taskId, runId: d.runId, ts: d.ts,
    deviationId: d.eventId, detector: d.detector, level: d.level, count: d.count, atSeq: d.atSeq, loopStartSeq: d.loopStartSeq, message: d.message, tool, argsHash: args, evidence: clip(d.evidence),
  };
}

/** `would-send`: the correction a shadow-mode tenant's agent would have received. */
export function correctionRecordOf(c: Correction, kind: 'correction' | 'would-send' = 'correction'): CorrectionRecord {
  return {
    id: `${kind}:${c.eventId}`, kind, tenantId: c.tenantId, agentId: c.agentId, taskId: c.taskId, runId: c.runId, ts: c.ts,
    correctionId: c.eventId, action: c.action, severity: c.severity, atSeq: c.atSeq, deviationIds: c.deviationIds, summary: correctionSummary(c),
  };
}

export function correctionSummary(c: Correction): string {
  switch (c.action) {
    case 'hint':
      return c.hint.text;
    case 'rollback':
      return `roll back to ${c.rollback.milestoneId ?? 'the start'} (checkpoint ${c.rollback.checkpointId ?? 'none'}), discarding steps after ${c.rollback.discardAfterSeq}`;
    case 'replan':
      return `replan from ${c.replan.fromMilestoneId ?? 'the start'}: ${c.replan.remaining.join(' → ') || 'nothing left'} — ${c.replan.reason}`;
    case 'freeze':
      return `frozen: ${c.freeze.reason}`;
  }
}

export function escalationRecordOf(e: Escalation): EscalationRecord {
  return {
    id: `escalation:${e.eventId}`, kind: 'escalation', tenantId: e.tenantId, agentId: e.agentId, taskId: e.taskId, runId: e.runId, ts: e.ts,
    escalationId: e.eventId, reason: e.reason, loopStartSeq: e.loopStartSeq, lastVerifiedMilestoneId: e.lastVerifiedMilestoneId,
    deviations: e.deviations.length, correctionsTried: e.correctionsTried.map((c) => c.action),
  };
}
