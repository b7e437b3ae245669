// At-least-once delivery: a redelivered deviation causes nothing new, and replays produce the same event ids.
import { CorrectionEngine } from './correction-engine';
import { context, deviation, FIXED_NOW, position, walk } from './ladder-scenario.testing';

function run() {
  const engine = new CorrectionEngine({ now: () => FIXED_NOW });
  const ctx = context();
  walk(engine, ctx, 0, 10, position('m2', ['m1'], 0.25));
  const d = deviation('generic_repeat', 10, { id: 'dev-fixed-1' });
  return { engine, ctx, d, first: engine.onDeviation(d, ctx) };
}

describe('redelivery and replay', () => {
  it('a redelivered deviation yields no second correction', () => {
    const { engine, ctx, d, first } = run();
    expect(first.corrections).toHaveLength(1);
    expect(engine.onDeviation(d, ctx).corrections).toEqual([]);
    expect(engine.stats().corrections).toBe(1);
  });

  it('two engines fed the same events produce identical corrections', () => {
    const a = run().first.corrections[0];
    const b = run().first.corrections[0];
    expect(a).toEqual(b);
    expect(a.eventId).toMatch(/^cor-[0-9a-f]{16}$/);
    expect(a.ts).toBe('2026-01-01T00:00:00.000Z');
  });
});
