/** Time-based stagnation: tick(now) flags an agent idle past factor × expectedStepMs, once per level. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('stagnation by wall clock', () => {
  it('warns at warningFactor and escalates at criticalFactor, once each, and resets on progress', () => {
    const engine = engineFor({ stagnation: { warningFactor: 6, criticalFactor: 10 } }, { expectedStepMs: 1000 });
    const s = steps({ stepMs: 1000 });
    runAll(engine, [s.act('read', { path: '/a' }), s.ok('read', 'a')]);
    const t0 = Date.parse('2026-01-01T00:00:00.000Z');
    expect(engine.tick(t0 + 5_000)).toEqual([]);
    const warning = engine.tick(t0 + 6_500);
    expect(warning.map((d) => [d.detector, d.level])).toEqual([['stagnation', 'warning']]);
    expect(warning[0].evidence).toMatchObject({ kind: 'time', expectedStepMs: 1000 });
    expect(engine.tick(t0 + 7_000)).toEqual([]);
    expect(engine.tick(t0 + 10_500).map((d) => d.level)).toEqual(['critical']);
    expect(engine.tick(t0 + 20_000)).toEqual([]);

    runAll(engine, [s.milestone('m1')]);
    const resumed = Date.parse(new Date(t0 + 2_000).toISOString());
    expect(engine.tick(resumed + 6_100).map((d) => d.level)).toEqual(['warning']);
  });

  it('stays quiet without an expected step time', () => {
    const engine = engineFor({ stagnation: { warningFactor: 1 } });
    const s = steps();
    runAll(engine, [s.act('read', { path: '/a' })]);
    expect(engine.tick(Date.parse('2030-01-01T00:00:00Z'))).toEqual([]);
  });
});
