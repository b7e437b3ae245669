// At-least-once delivery: a redelivered deviation causes nothing new (it gets its first decision again, so a
// failed publish is retried with the same event ids), and replays produce the same event ids.
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
  it('a redelivered deviation gets its first decision again, marked replayed, and decides nothing new', () => {
    const { engine, ctx, d, first } = run();
    expect(first.corrections).toHaveLength(1);
    expect(first.replayed).toBeUndefined();
    // Its batch failed after the decision (e.g. the publish): the redelivery re-publishes the same event.
    const again = engine.onDeviation(d, ctx);
    expect(again).toEqual({ corrections: first.corrections, escalations: [], replayed: true });
    expect(engine.stats().corrections).toBe(1);
    // The ladder did not move: the next deviation is judged from where the first one left it.
    expect(engine.onDeviation(d, ctx).corrections).toEqual(first.corrections);
  });

  it('a redelivered deviation that caused nothing still causes nothing', () => {
    const { engine, ctx } = run();
    const quiet = deviation('generic_repeat', 11, { id: 'dev-fixed-2' });
    expect(engine.onDeviation(quiet, ctx)).toEqual({ corrections: [], escalations: [] });
    expect(engine.onDeviation(quiet, ctx)).toEqual({ corrections: [], escalations: [], replayed: true });
  });

  it('two engines fed the same events produce identical corrections', () => {
    const a = run().first.corrections[0];
    const b = run().first.corrections[0];
    expect(a).toEqual(b);
    expect(a.eventId).toMatch(/^cor-[0-9a-f]{16}$/);
    expect(a.ts).toBe('2026-01-01T00:00:00.000Z');
  });
});
