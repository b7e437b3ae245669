// The engine reads deviations and localized steps from two topics, so the steps up to a deviation can
// arrive after the correction it caused. Progress in those earlier steps is not a recovery.
import { CorrectionEngine } from './correction-engine';
import { context, deviation, FIXED_NOW, position, testPolicy, walk } from './ladder-scenario.testing';

describe('steps from before a correction, arriving after it', () => {
  it('do not count as a self-heal, and recovery is measured from where they left the agent', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context({ policy: testPolicy({ selfHealWindow: 5 }) });
    walk(engine, ctx, 0, 4, position('m1', [], 0.5));
    // The deviation at seq 10 is read before steps 5..10, in which the agent had reached m2.
    engine.onDeviation(deviation('error_repeat', 10), ctx);
    expect(walk(engine, ctx, 5, 10, position('m2', ['m1'], 0.25))).toEqual([]);
    // After the correction the agent is where it was: not healed yet.
    expect(walk(engine, ctx, 11, 12, position('m2', ['m1'], 0.25))).toEqual([]);
    expect(walk(engine, ctx, 13, 13, position('m2', ['m1'], 0.4))).toEqual([
      expect.objectContaining({ healed: true, correctedAtSeq: 10, resolvedAtSeq: 13 }),
    ]);
  });
});
