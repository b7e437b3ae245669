// A critical deviation enters the ladder at severe or critical by detector: the only rung skips besides hard stops.
import { CorrectionEngine } from './correction-engine';
import { context, deviation, FIXED_NOW, position, walk } from './ladder-scenario.testing';

describe('critical deviations', () => {
  it('a critical loop with no prior correction is replanned at once', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    walk(engine, ctx, 0, 20, position('m2', ['m1'], 0.25));
    const d = engine.onDeviation(deviation('generic_repeat', 20, { level: 'critical', count: 21 }), ctx);
    expect(d.corrections.map((c) => [c.action, c.severity])).toEqual([['replan', 'severe']]);
    expect(d.escalations).toEqual([]);
  });

  it('a critical loop right after a hint jumps to replan without waiting for the window', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    walk(engine, ctx, 0, 10, position('m2', ['m1'], 0.25));
    expect(engine.onDeviation(deviation('generic_repeat', 10), ctx).corrections[0].action).toBe('hint');
    walk(engine, ctx, 11, 11, position('m2', ['m1'], 0.25));
    const d = engine.onDeviation(deviation('generic_repeat', 11, { level: 'critical', count: 21 }), ctx);
    expect(d.corrections.map((c) => c.action)).toEqual(['replan']);
  });

  it('the global circuit breaker freezes and escalates', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    walk(engine, ctx, 0, 30, position('m2', ['m1'], 0.25));
    const d = engine.onDeviation(deviation('global_circuit_breaker', 30, { level: 'critical', count: 30, evidence: {} }), ctx);
    expect(d.corrections.map((c) => [c.action, c.severity])).toEqual([['freeze', 'critical']]);
    expect(d.escalations).toHaveLength(1);
  });
});
