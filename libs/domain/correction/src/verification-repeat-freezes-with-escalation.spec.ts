// A milestone whose verification keeps failing is a hard stop: freeze at once with an escalation that
// carries the attempts and their evidence.
import { CorrectionEngine } from './correction-engine';
import { context, deviation, FIXED_NOW, position, walk } from './ladder-scenario.testing';

describe('verification_failed_repeat through the ladder', () => {
  it('freezes at once, even during a cool-down, and escalates with the attempts', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context({ policy: context().policy });
    walk(engine, ctx, 0, 14, position('m2', ['m1'], 0.25));
    expect(engine.onDeviation(deviation('generic_repeat', 13), ctx).corrections[0].action).toBe('hint');
    const attempts = [{ seq: 4, evidence: 'average is NaN' }, { seq: 9, evidence: 'average is NaN' }, { seq: 14, evidence: 'expected a number' }];
    const out = engine.onDeviation(
      deviation('verification_failed_repeat', 14, { level: 'critical', count: 3, evidence: { milestoneId: 'm2', failures: 3, attempts } }),
      ctx,
    );
    expect(out.corrections.map((c) => [c.action, c.severity])).toEqual([['freeze', 'critical']]);
    expect(out.escalations).toHaveLength(1);
    expect(out.escalations[0].reason).toContain('verification_failed_repeat');
    const reported = out.escalations[0].deviations.find((d) => d.detector === 'verification_failed_repeat');
    expect(reported?.evidence['attempts']).toEqual(attempts);
    expect(engine.isFrozen('acme', 'agent-7', 'run-1')).toBe(true);
  });

  it('a constraint warning (embedder suspicion) is hinted, not frozen', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    walk(engine, ctx, 0, 5, position('m2', ['m1'], 0.25));
    const out = engine.onDeviation(deviation('constraint_violation', 5, { count: 1, evidence: { tool: 'export_contacts', constraint: 'Never export phone numbers', method: 'embedder' } }), ctx);
    expect(out.corrections.map((c) => c.action)).toEqual(['hint']);
  });
});
