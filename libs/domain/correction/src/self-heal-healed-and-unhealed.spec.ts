// A healed agent counts as a self-heal; an agent that makes no progress within K steps counts as a failure.
import { CorrectionEngine } from './correction-engine';
import { actionStep, context, deviation, FIXED_NOW, position, testPolicy, walk } from './ladder-scenario.testing';

describe('self-heal tracking', () => {
  it('counts progress within K steps after a correction as a self-heal', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context({ policy: testPolicy({ selfHealWindow: 5 }) });
    walk(engine, ctx, 0, 10, position('m2', ['m1'], 0.25));
    const hint = engine.onDeviation(deviation('error_repeat', 10), ctx).corrections[0];
    expect(walk(engine, ctx, 11, 13, position('m2', ['m1'], 0.25))).toEqual([]);
    const outcomes = walk(engine, ctx, 14, 14, position('m2', ['m1'], 0.3));
    expect(outcomes).toEqual([
      expect.objectContaining({ correctionId: hint.eventId, healed: true, milestoneId: 'm2', steps: 4, severity: 'mild' }),
    ]);
    expect(engine.stats()).toMatchObject({ selfHeals: 1, selfHealFailures: 0 });
  });

  it('counts no progress within K steps as a failure, decided exactly at the K-th step', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context({ policy: testPolicy({ selfHealWindow: 5 }) });
    walk(engine, ctx, 0, 10, position('m2', ['m1'], 0.25));
    engine.onDeviation(deviation('error_repeat', 10), ctx);
    expect(walk(engine, ctx, 11, 14, position('m2', ['m1'], 0.25))).toEqual([]);
    const outcomes = walk(engine, ctx, 15, 15, position('m2', ['m1'], 0.25));
    expect(outcomes).toEqual([expect.objectContaining({ healed: false, correctedAtSeq: 10, resolvedAtSeq: 15, steps: 5 })]);
    // Progress after the window is too late for that correction.
    expect(walk(engine, ctx, 16, 16, position('m3', ['m1', 'm2'], 0.5))).toEqual([]);
    expect(engine.stats()).toMatchObject({ selfHeals: 0, selfHealFailures: 1 });
  });

  it('an explicit milestone-done signal is progress even without a position', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    walk(engine, ctx, 0, 10, position('m2', ['m1'], 0.25));
    engine.onDeviation(deviation('monologue', 10, { evidence: {} }), ctx);
    const { schema, eventId, tenantId, ts, agentId, taskId, runId } = actionStep(11);
    const done = { schema, eventId, tenantId, ts, agentId, taskId, runId, seq: 11, kind: 'milestone' as const, milestone: { id: 'm2', status: 'done' as const } };
    expect(engine.onStep(done, undefined, ctx)).toEqual([expect.objectContaining({ healed: true })]);
  });

  it('a correction that is followed by a higher rung is reported as not healed', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context({ policy: testPolicy({ selfHealWindow: 10 }) });
    walk(engine, ctx, 0, 10, position('m2', ['m1'], 0.25));
    const hint = engine.onDeviation(deviation('generic_repeat', 10), ctx).corrections[0];
    walk(engine, ctx, 11, 13, position('m2', ['m1'], 0.25));
    expect(engine.onDeviation(deviation('generic_repeat', 13), ctx).corrections[0].action).toBe('rollback');
    const outcomes = walk(engine, ctx, 14, 14, position('m2', ['m1'], 0.25));
    expect(outcomes).toEqual([expect.objectContaining({ correctionId: hint.eventId, healed: false })]);
  });
});
