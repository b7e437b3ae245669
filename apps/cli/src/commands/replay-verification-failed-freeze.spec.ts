import { replayFixture } from './replay-navigator.testing';

describe('wayfinder replay: a milestone failing three times', () => {
  it('freezes the agent with an escalation carrying the attempts and their evidence', async () => {
    const out = await replayFixture('milestone-fails-three-times.jsonl', true);
    expect(out.map((o) => o.detector ?? o.action ?? o.schema)).toEqual(['verification_failed_repeat', 'freeze', 'wayfinder.escalation.v1']);
    const escalation = out[2];
    expect(escalation.reason).toContain('failed its verification 3 times');
    expect(escalation.deviations[0].evidence.attempts.map((a: { evidence: string }) => a.evidence)).toEqual([
      'report has 2 of 4 sections',
      'report has 3 of 4 sections',
      "validator: section 'costs' missing",
    ]);
  });
});
