import type { Correction } from '@wayfinder/contracts';
import { judgeCorrection } from '@wayfinder/testing';
import { SHAM_HINT, shamOf } from '@wayfinder/evaluation';

const base = {
  schema: 'wayfinder.correction.v1' as const,
  eventId: 'c1',
  tenantId: 'acme',
  ts: '2026-01-01T00:00:00Z',
  agentId: 'agent-1',
  taskId: 't',
  runId: 'run-1',
  deviationIds: ['d1'],
  severity: 'moderate' as const,
  atSeq: 20,
  reason: 'You called `read_file` with the same arguments 5 times.',
};
const failure = { respondsTo: 'hint' as const, startSeq: 12, tools: ['read_file'], values: ['data/export-ab12.csv'], milestone: { id: 'load', description: 'Load the raw data files' }, open: ['load', 'clean'] };

describe('the sham navigator', () => {
  it('keeps each correction at its moment and rung but strips what would let the agent act on it', () => {
    const real: Correction[] = [
      { ...base, action: 'hint', hint: { text: 'You called `read_file` on data/export-ab12.csv 5 times with the same empty result.' } },
      { ...base, action: 'rollback', rollback: { checkpointId: 'cp:t:start:0', milestoneId: null, discardAfterSeq: 11 } },
      { ...base, action: 'replan', replan: { fromMilestoneId: 'load', remaining: ['load', 'clean'], reason: 'Replan from load: read_file keeps returning an empty file.' } },
    ];
    for (const c of real) {
      const sham = shamOf(c);
      expect({ action: sham.action, atSeq: sham.atSeq, severity: sham.severity, eventId: sham.eventId }).toEqual({ action: c.action, atSeq: c.atSeq, severity: c.severity, eventId: c.eventId });
      if (sham.action === 'freeze') throw new Error('no freeze here');
      expect(judgeCorrection(c as Exclude<Correction, { action: 'freeze' }>, failure).specific).toBe(true);
      expect(judgeCorrection(sham, failure).specific).toBe(false);
      expect(JSON.stringify(sham)).not.toContain('read_file');
    }
    expect(shamOf(real[0])).toMatchObject({ hint: { text: SHAM_HINT } });
    const freeze: Correction = { ...base, action: 'freeze', freeze: { escalationId: 'e1', reason: 'stuck' } };
    expect(shamOf(freeze)).toBe(freeze);
  });
});
