// The agent's own ALIGN-CHECK saying no is a rollback trigger: the warning enters at moderate, and the
// rollback's reason quotes the failing answer (the memory service carries it into the next STATE).
import { CorrectionEngine } from './correction-engine';
import { context, deviation, FIXED_NOW, position, walk } from './ladder-scenario.testing';

const answer = '2. Did the last steps advance the current sub-task? no — the same page keeps coming back';

describe('align_check_failed through the ladder', () => {
  it('rolls back to the last verified checkpoint, quoting the answer (EN)', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    walk(engine, ctx, 0, 8, position('m2', ['m1'], 0.25));
    const d = deviation('align_check_failed', 8, { count: 1, evidence: { answer, questions: ['progress'] } });
    const out = engine.onDeviation({ ...d, message: `The agent's ALIGN-CHECK says no: "${answer}"` }, ctx);
    expect(out.corrections.map((c) => [c.action, c.severity])).toEqual([['rollback', 'moderate']]);
    const rollback = out.corrections[0];
    expect(rollback.action === 'rollback' && rollback.rollback).toEqual({ checkpointId: 'cp-m1', milestoneId: 'm1', discardAfterSeq: 4 });
    expect(rollback.reason).toContain(answer);
  });

  it('quotes a Chinese answer too, and a second "no" past the tolerance climbs to a replan (ZH)', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    walk(engine, ctx, 0, 8, position('m2', ['m1'], 0.25));
    const zh = '3. 是否违反了硬约束？是，修改了源文件';
    const first = engine.onDeviation({ ...deviation('align_check_failed', 8, { count: 1 }), message: `The agent's ALIGN-CHECK says no: "${zh}"` }, ctx);
    expect(first.corrections[0].reason).toContain(zh);
    walk(engine, ctx, 9, 12, position('m2', ['m1'], 0.25));
    const second = engine.onDeviation(deviation('align_check_failed', 12, { count: 2 }), ctx);
    expect(second.corrections.map((c) => c.action)).toEqual(['replan']);
  });
});
