// Off-goal sub-goals are tolerated within the exploration budget's share of the plan; past it, the hint
// names them and asks to drop or justify them.
import { CorrectionEngine } from './correction-engine';
import { context, deviation, FIXED_NOW, position, testPolicy, walk } from './ladder-scenario.testing';

const offGoal = { subgoals: 3, offGoal: [{ id: 's2', text: 'Read that interesting article about AI history' }] };

describe('plan_off_goal through the ladder', () => {
  it('hints naming the sub-goal and asking to drop or justify it', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    walk(engine, ctx, 0, 3, position('m2', ['m1'], 0.25));
    const out = engine.onDeviation(deviation('plan_off_goal', 3, { count: 1, evidence: offGoal }), ctx);
    expect(out.corrections.map((c) => c.action)).toEqual(['hint']);
    const hint = out.corrections[0].action === 'hint' ? out.corrections[0].hint.text : '';
    expect(hint).toContain('s2 ("Read that interesting article about AI history")');
    expect(hint).toMatch(/drop .* or justify/);
  });

  it('tolerates one off-goal sub-goal of ten with a 10% exploration budget', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context({ policy: testPolicy({ explorationBudget: 0.1 }) });
    walk(engine, ctx, 0, 3, position('m2', ['m1'], 0.25));
    expect(engine.onDeviation(deviation('plan_off_goal', 3, { count: 1, evidence: { ...offGoal, subgoals: 10 } }), ctx).corrections).toEqual([]);
  });
});
