/**
 * P7 (PROJECT-RULES.md) past the history window: a search rephrased sixty times that never finds anything
 * keeps escalating at each new multiple of the critical threshold (8 in balanced), its onset staying the
 * first search, although the history (30 records) no longer holds it. It once looked the onset up in the
 * history, so past the window every outcome seemed to start a new streak and was reported again.
 */
import { engineFor, runAll, steps } from './test-support/step-builder';

/** `n` searches, each with new words, each finding nothing. */
function fruitlessSearches(s: ReturnType<typeof steps>, n: number, from = 0) {
  const events = [];
  for (let i = from; i < from + n; i++) {
    events.push(s.act('search_code', { query: `Rule_L031 variant ${i}` }));
    events.push(s.ok('search_code', `Found 0 code sections mentioning Rule_L031 variant ${i}`));
  }
  return events;
}

const fruitless = (out: ReturnType<typeof runAll>) => out.filter((d) => d.evidence['fruitless'] === true).map((d) => [d.level, d.count, d.loopStartSeq]);

describe('fruitless streak past the history window', () => {
  it('escalates at 32, 40, 48 and 56 fruitless outcomes, once each, the onset staying the first search', () => {
    const s = steps();
    expect(fruitless(runAll(engineFor(), fruitlessSearches(s, 60)))).toEqual([
      ['warning', 4, 0],
      ['critical', 8, 0],
      ['critical', 16, 0],
      ['critical', 24, 0],
      ['critical', 32, 0],
      ['critical', 40, 0],
      ['critical', 48, 0],
      ['critical', 56, 0],
    ]);
  });

  it('starts over after a search that finds something: a new streak with its own onset (the legitimate twin)', () => {
    const s = steps();
    // 35 misses (seq 0–69), a find (70, 71), then 5 misses from seq 72.
    const events = [...fruitlessSearches(s, 35), s.act('search_code', { query: 'class Rule_L031' }), s.ok('search_code', 'src/sqlfluff/rules/L031.py:12: class Rule_L031(BaseRule):'), ...fruitlessSearches(s, 5, 100)];
    expect(fruitless(runAll(engineFor(), events))).toEqual([
      ['warning', 4, 0],
      ['critical', 8, 0],
      ['critical', 16, 0],
      ['critical', 24, 0],
      ['critical', 32, 0],
      ['warning', 4, 72],
    ]);
  });
});
