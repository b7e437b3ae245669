// A frozen agent gets nothing more until a human resumes it; then its next deviation is corrected again,
// from the bottom of the ladder. Resuming one tenant's agent leaves another tenant's same-named agent frozen.
import { CorrectionEngine } from './correction-engine';
import { context, deviation, FIXED_NOW, position, walk } from './ladder-scenario.testing';

describe('resume after a freeze', () => {
  it('unfreezes the agent and starts its ladder again', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    walk(engine, ctx, 0, 5, position('m2', ['m1'], 0.25));
    const stop = engine.onDeviation(deviation('budget', 5, { level: 'critical', count: 1, evidence: { ratio: 1 } }), ctx);
    expect(stop.corrections.map((c) => c.action)).toEqual(['freeze']);
    const tenantId = stop.corrections[0].tenantId;
    const agentId = stop.corrections[0].agentId;
    expect(engine.isFrozen(tenantId, agentId, stop.corrections[0].runId)).toBe(true);
    walk(engine, ctx, 6, 8, position('m2', ['m1'], 0.25));
    expect(engine.onDeviation(deviation('generic_repeat', 8), ctx).corrections).toEqual([]);

    expect(engine.resume(`other-${tenantId}`, agentId)).toBe(false);
    expect(engine.isFrozen(tenantId, agentId, stop.corrections[0].runId)).toBe(true);
    expect(engine.resume(tenantId, agentId)).toBe(true);
    expect(engine.isFrozen(tenantId, agentId, stop.corrections[0].runId)).toBe(false);
    expect(engine.resume(tenantId, agentId)).toBe(false);

    walk(engine, ctx, 9, 12, position('m2', ['m1'], 0.25));
    const after = engine.onDeviation(deviation('generic_repeat', 12), ctx);
    expect(after.corrections.map((c) => [c.action, c.severity])).toEqual([['hint', 'mild']]);
  });
});
