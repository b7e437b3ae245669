/** Corrections as the correction engine publishes them, for applyCorrection's specs. */
import type { Correction } from '@wayfinder/contracts';

const base = {
  schema: 'wayfinder.correction.v1' as const,
  tenantId: 'local',
  ts: '2026-01-01T00:00:10.000Z',
  agentId: 'agent-1',
  taskId: 'report',
  runId: null,
  deviationIds: ['dev-1'],
  atSeq: 9,
  reason: 'read_file returned the same error 5 times',
};

export const hint = (text: string, n = 1): Correction => ({ ...base, eventId: `cor-hint-${n}`, severity: 'mild', action: 'hint', hint: { text } });
export const rollback = (discardAfterSeq: number, milestoneId: string | null): Correction => ({
  ...base,
  eventId: 'cor-rollback',
  severity: 'moderate',
  action: 'rollback',
  rollback: { checkpointId: milestoneId ? `ckpt-${milestoneId}` : null, milestoneId, discardAfterSeq },
});
export const replan = (remaining: string[]): Correction => ({
  ...base,
  eventId: 'cor-replan',
  severity: 'severe',
  action: 'replan',
  replan: { fromMilestoneId: 'read-data', remaining, reason: 'stuck computing totals' },
});
export const freeze: Correction = { ...base, eventId: 'cor-freeze', severity: 'critical', action: 'freeze', freeze: { escalationId: 'esc-1', reason: 'dangerous tool rm_rf' } };
