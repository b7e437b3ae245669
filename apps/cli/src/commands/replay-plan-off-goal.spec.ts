import { replayFixture } from './replay-navigator.testing';

describe('wayfinder replay: a plan checked against the map', () => {
  it('gives plan_off_goal naming the one sub-goal that serves no anchor, and a hint asking to drop or justify it', async () => {
    const out = await replayFixture('plan-with-off-goal-subgoal.jsonl', true);
    const deviation = out.find((d) => d.detector === 'plan_off_goal');
    expect(deviation?.evidence.offGoal).toEqual([{ id: 's2', text: 'Read that interesting article about the history of AI' }]);
    const hint = out.find((o) => o.action === 'hint');
    expect(hint?.hint.text).toContain('s2 ("Read that interesting article about the history of AI")');
    expect(hint?.hint.text).toMatch(/drop .* or justify/);
  });

  it('gives nothing for a plan whose sub-goals all map', async () => {
    expect(await replayFixture('plan-all-mapped.jsonl', true)).toEqual([]);
  });
});
