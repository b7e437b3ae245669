import { replayFixture } from './replay-navigator.testing';

describe('wayfinder replay: an [ALIGN-CHECK] that says no', () => {
  it('leads through the ladder to a rollback to the verified milestone whose reason quotes the answer', async () => {
    const out = await replayFixture('align-check-says-no.jsonl', true);
    expect(out.map((o) => o.detector ?? o.action)).toEqual(['align_check_failed', 'rollback']);
    const rollback = out[1];
    expect(rollback.rollback).toEqual({ checkpointId: 'cp:report:collect:0', milestoneId: 'collect', discardAfterSeq: 0 });
    expect(rollback.reason).toContain('2. Did the last steps advance the current sub-task? no, the same two pages keep coming back');
  });
});
