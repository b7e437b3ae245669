import { replayFixture } from './replay-navigator.testing';

describe('wayfinder replay: a task with "最终输出必须为 JSON"', () => {
  it('gives a critical violation for a final output that is not JSON, and freezes', async () => {
    const out = await replayFixture('final-output-not-json.jsonl', true);
    const violation = out.find((d) => d.detector === 'constraint_violation');
    expect(violation).toMatchObject({ level: 'critical', evidence: { constraint: '最终输出必须为 JSON', rule: 'outputFormat' } });
    expect(out.some((o) => o.action === 'freeze')).toBe(true);
  });

  it('gives nothing for a JSON final output', async () => {
    expect(await replayFixture('final-output-json.jsonl', true)).toEqual([]);
  });
});
