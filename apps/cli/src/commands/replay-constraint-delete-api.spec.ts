import { replayFixture } from './replay-navigator.testing';

describe('wayfinder replay: a task with "Never call a delete API"', () => {
  it('gives a critical constraint_violation naming the constraint for delete_records', async () => {
    const out = await replayFixture('delete-api-called.jsonl');
    const named = out.filter((d) => d.detector === 'constraint_violation' && d.evidence.constraint === 'Never call a delete API');
    expect(named).toHaveLength(1);
    expect(named[0]).toMatchObject({ level: 'critical', atSeq: 2, evidence: { constraintId: 'c1', constraintNumber: 1, tool: 'delete_records' } });
  });

  it('freezes with an escalation whose reason names the constraint', async () => {
    const out = await replayFixture('delete-api-called.jsonl', true);
    const freeze = out.find((o) => o.action === 'freeze');
    expect(freeze?.reason).toContain('Constraint 1 ("Never call a delete API")');
    expect(out.find((o) => o.schema === 'wayfinder.escalation.v1')?.reason).toContain('Never call a delete API');
  });

  it('gives nothing at all for list_records', async () => {
    expect(await replayFixture('list-records-only.jsonl', true)).toEqual([]);
  });
});
