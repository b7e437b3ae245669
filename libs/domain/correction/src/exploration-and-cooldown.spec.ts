// Weakly related steps within the exploration budget are tolerated; the cool-down spaces corrections out.
import { CorrectionEngine } from './correction-engine';
import { context, deviation, FIXED_NOW, position, testPolicy, walk } from './ladder-scenario.testing';

describe('exploration budget and cool-down', () => {
  it('tolerates a drift streak inside 10% of the step budget and corrects a longer one', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context(); // maxSteps 100, explorationBudget 0.1 → 10 off-track steps allowed
    walk(engine, ctx, 0, 20, position('m2', ['m1'], 0.25));
    expect(engine.onDeviation(deviation('drift', 20, { count: 8, evidence: {} }), ctx).corrections).toEqual([]);
    const d = engine.onDeviation(deviation('drift', 21, { count: 12, evidence: {} }), ctx);
    expect(d.corrections.map((c) => c.action)).toEqual(['hint']);
  });

  it('a critical drift is never exploration', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    walk(engine, ctx, 0, 20, position('m2', ['m1'], 0.25));
    expect(engine.onDeviation(deviation('drift', 20, { level: 'critical', count: 3, evidence: {} }), ctx).corrections).toHaveLength(1);
  });

  it('holds the next rung until the cool-down has passed, even past the tolerance window', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context({ policy: testPolicy({ cooldownSteps: 6, toleranceSteps: 3 }) });
    walk(engine, ctx, 0, 10, position('m2', ['m1'], 0.25));
    expect(engine.onDeviation(deviation('generic_repeat', 10), ctx).corrections).toHaveLength(1);
    expect(engine.onDeviation(deviation('generic_repeat', 13), ctx).corrections).toEqual([]);
    expect(engine.onDeviation(deviation('generic_repeat', 16), ctx).corrections.map((c) => c.action)).toEqual(['rollback']);
  });
});
