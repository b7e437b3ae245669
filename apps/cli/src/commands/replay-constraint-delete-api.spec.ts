import { replayFixture } from './replay-navigator.testing';

describe('wayfinder replay: a task with "Never call a delete API"', () => {
  it('gives a critical constraint_violation naming the constraint for delete_records', async () => {
    const out = await replayFixture('delete-api-called.jsonl');
    const named = out.filter((d) => d.detector === 'constraint_violation' && d.evidence.constraint === 'Never call a delete API');
    expect(named).toHaveLength(1);
    expect(named[0]).toMatchObject({ level: 'critical', atSeq: 2, evidence: { constraintId: 'c1', constraintNumber: 1, tool: 'delete_records' } });
  });

  it('gives nothing at all for list_records', async () => {
    expect(await replayFixture('list-records-only.jsonl', true)).toEqual([]);
  });
});
