/** Per-agent state survives a partition move: export, import elsewhere, continue with the same results. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('agent state export and import', () => {
  it('continues a loop on another engine exactly as the first would have', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 25; i++) events.push(s.act('read', { path: '/same.txt' }), s.ok('read', 'same output'));
    const head = events.slice(0, 30);
    const tail = events.slice(30);

    const a = engineFor({ profile: 'openclaw' });
    runAll(a, head);
    const state = a.exportAgentState('t1', 'a1');
    expect(state).toBeInstanceOf(Uint8Array);

    const b = engineFor({ profile: 'openclaw' });
    b.importAgentState('t1', 'a1', state as Uint8Array);
    const fromB = runAll(b, tail);
    const fromA = runAll(a, tail);
    expect(fromB).toEqual(fromA);
    expect(fromB.some((d) => d.detector === 'generic_repeat' && d.level === 'critical' && d.count === 20)).toBe(true);
    // The imported state also remembers what was applied: a redelivered event is still a duplicate.
    expect(b.onStep(head[29])).toEqual([]);
  });

  it('returns undefined for an agent it does not know and keeps the balanced state small', () => {
    const engine = engineFor();
    expect(engine.exportAgentState('t1', 'nobody')).toBeUndefined();
    const s = steps();
    runAll(engine, [s.act('web_search', { query: 'acme revenue' }), s.ok('web_search', 'results'), s.say('Looking at the results now.')]);
    const bytes = engine.exportAgentState('t1', 'a1');
    expect(bytes && bytes.length).toBeGreaterThan(0);
  });
});
