// A warning that clears inside the tolerance window gets one hint and no more.
import { Correction } from '@wayfinder/contracts';
import { CorrectionEngine } from './correction-engine';
import { context, deviation, FIXED_NOW, position, walk } from './ladder-scenario.testing';

describe('a warning that clears inside the tolerance window', () => {
  it('gets one hint, no second correction, and counts as a self-heal', () => {
    const engine = new CorrectionEngine({ now: () => FIXED_NOW });
    const ctx = context();
    const onM2 = position('m2', ['m1'], 0.25);
    walk(engine, ctx, 0, 10, onM2);

    const first = engine.onDeviation(deviation('generic_repeat', 10), ctx);
    expect(first.corrections.map((c) => [c.action, c.severity])).toEqual([['hint', 'mild']]);
    expect(() => Correction.parse(first.corrections[0])).not.toThrow();

    walk(engine, ctx, 11, 11, onM2);
    // The same loop is still reported one step later: inside the 3-step window, so no new rung.
    const again = engine.onDeviation(deviation('generic_repeat', 11), ctx);
    expect(again.corrections).toEqual([]);

    const healed = walk(engine, ctx, 12, 12, position('m3', ['m1', 'm2'], 0.5));
    expect(healed).toHaveLength(1);
    expect(healed[0]).toMatchObject({ healed: true, action: 'hint', correctedAtSeq: 10, resolvedAtSeq: 12, steps: 2 });

    walk(engine, ctx, 13, 30, position('m3', ['m1', 'm2'], 0.5));
    expect(engine.stats()).toEqual({ corrections: 1, selfHeals: 1, selfHealFailures: 0, escalations: 0 });
  });
});
