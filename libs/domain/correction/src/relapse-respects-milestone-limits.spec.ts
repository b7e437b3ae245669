// Relapses re-enter one rung above the last one used, within at most 2 rollbacks and 4 corrections per milestone.
import type { Correction } from '@wayfinder/contracts';
import { CorrectionEngine } from './correction-engine';
import type { CorrectionContext } from './correction-engine';
import { context, deviation, FIXED_NOW, position, testPolicy, walk } from './ladder-scenario.testing';

const onTool = (tool: string) => ({ tool, args: { q: tool }, argsHash: tool });

/** Drives one milestone (m2) through loops on different tools; each heals by raising progress a little. */
function scenario(ctx: CorrectionContext) {
  const engine = new CorrectionEngine({ now: () => FIXED_NOW });
  let progress = 0.2;
  let seq = 0;
  const emitted: { seq: number; correction: Correction; escalated: boolean }[] = [];
  const steps = (n: number, heal = false) => {
    for (let i = 0; i < n; i++) {
      seq += 1;
      if (heal && i === n - 1) progress += 0.01;
      engine.onStep(
        { schema: 'wayfinder.step.v1', eventId: `s${seq}`, tenantId: 'acme', ts: '2026-01-01T00:00:00.000Z', agentId: 'agent-7', taskId: 'task-1', runId: 'run-1', seq, kind: 'action', action: { tool: 'x', args: {} } },
        position('m2', ['m1'], progress),
        ctx,
      );
    }
  };
  const loop = (tool: string) => {
    const d = engine.onDeviation(deviation('generic_repeat', seq, { evidence: onTool(tool) }), ctx);
    for (const c of d.corrections) emitted.push({ seq, correction: c, escalated: d.escalations.length > 0 });
  };
  walk(engine, ctx, 0, 0, position('m2', ['m1'], progress));
  return { engine, emitted, steps, loop };
}

describe('relapses within one milestone', () => {
  it('re-enter one rung higher, and the fifth correction is a freeze (4-correction limit)', () => {
    const s = scenario(context());
    s.steps(10);
    s.loop('search'); // hint
    s.steps(2, true); // healed
    s.steps(5);
    s.loop('search'); // relapse → rollback
    s.steps(2, true);
    s.steps(5);
    s.loop('fetch'); // a new problem → hint
    s.steps(3);
    s.loop('fetch'); // persisted past the window → rollback (2nd)
    s.steps(2, true);
    s.steps(5);
    s.loop('browse'); // a fifth correction would exceed the limit
    expect(s.emitted.map((e) => e.correction.action)).toEqual(['hint', 'rollback', 'hint', 'rollback', 'freeze']);
    const freeze = s.emitted[4].correction;
    expect(freeze.reason).toContain('correction limit reached');
    expect(s.emitted[4].escalated).toBe(true);
    expect(s.engine.stats()).toMatchObject({ corrections: 5, selfHeals: 3, escalations: 1 });
  });

  it('a third rollback on the same milestone is a freeze (2-rollback limit)', () => {
    const s = scenario(context({ policy: testPolicy({ maxCorrectionsPerMilestone: 10 }) }));
    for (const tool of ['search', 'fetch', 'browse']) {
      s.steps(5);
      s.loop(tool); // hint
      s.steps(3);
      s.loop(tool); // rollback, or the freeze once two were used
      s.steps(2, true);
    }
    expect(s.emitted.map((e) => e.correction.action)).toEqual(['hint', 'rollback', 'hint', 'rollback', 'hint', 'freeze']);
    expect(s.emitted[5].correction.reason).toContain('rollback limit reached');
  });

  it('a relapse after a replan goes straight to freeze: the ladder has no rung left', () => {
    const s = scenario(context({ policy: testPolicy({ maxCorrectionsPerMilestone: 10 }) }));
    s.steps(20);
    const d = s.engine.onDeviation(deviation('generic_repeat', 20, { level: 'critical', evidence: onTool('search') }), context());
    expect(d.corrections.map((c) => c.action)).toEqual(['replan']);
    s.steps(2, true);
    s.steps(5);
    s.loop('search');
    expect(s.emitted.map((e) => e.correction.action)).toEqual(['freeze']);
  });
});
