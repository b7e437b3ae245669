// Dangerous tools and exhausted budgets freeze at once: no tolerance window, cool-down or ladder delays them.
import { CorrectionEngine } from './correction-engine';
import { context, deviation, FIXED_NOW, position, testPolicy, walk } from './ladder-scenario.testing';

describe('hard stops', () => {
  it('a dangerous tool call freezes at once, even inside the window of a fresh hint and a long cool-down', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context({ policy: testPolicy({ cooldownSteps: 50, toleranceSteps: 10 }) });
    walk(engine, ctx, 0, 10, position('m2', ['m1'], 0.25));
    expect(engine.onDeviation(deviation('generic_repeat', 10), ctx).corrections[0].action).toBe('hint');
    walk(engine, ctx, 11, 11, position('m2', ['m1'], 0.25));
    const stop = engine.onDeviation(
      deviation('constraint_violation', 11, { level: 'critical', count: 1, evidence: { tool: 'delete_database', constraint: 'never touch production data' } }),
      ctx,
    );
    expect(stop.corrections.map((c) => c.action)).toEqual(['freeze']);
    expect(stop.escalations).toHaveLength(1);
    expect(stop.escalations[0].reason).toContain('constraint_violation');
    expect(stop.escalations[0].correctionsTried.map((c) => c.action)).toEqual(['hint']);
  });

  it('an exhausted budget freezes as the very first correction', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    walk(engine, ctx, 0, 5, position('m2', ['m1'], 0.25));
    const stop = engine.onDeviation(deviation('budget', 5, { level: 'critical', count: 1, evidence: { ratio: 1 } }), ctx);
    expect(stop.corrections.map((c) => [c.action, c.severity])).toEqual([['freeze', 'critical']]);
    expect(stop.escalations).toHaveLength(1);
  });

  it('a budget warning is not a hard stop: it gets a hint', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    walk(engine, ctx, 0, 5, position('m2', ['m1'], 0.25));
    const d = engine.onDeviation(deviation('budget', 5, { count: 1, evidence: { ratio: 0.8 } }), ctx);
    expect(d.corrections.map((c) => c.action)).toEqual(['hint']);
    expect(d.corrections[0].action === 'hint' && d.corrections[0].hint.text).toContain('80% of its budget');
  });
});
