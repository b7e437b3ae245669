/** cycle_repeat: the same three calls (A-B-C) repeated with the same outcomes each time. */
import { engineFor, runAll, steps } from './test-support/step-builder';

function abcCycles(times: number) {
  const s = steps();
  const events = [];
  for (let i = 0; i < times; i++) {
    events.push(s.act('open_tab', { url: 'https://shop.example.com/cart' }), s.ok('open_tab', 'cart: 2 items'));
    events.push(s.act('click', { selector: '#checkout' }), s.ok('click', 'clicked #checkout'));
    events.push(s.act('read_page', { part: 'errors' }), s.ok('read_page', 'Payment method required'));
  }
  return events;
}

describe('a cycle of three calls repeated with stable outcomes', () => {
  it('warns when the cycle completes its third repetition and goes critical at the fifth, naming the period', () => {
    const out = runAll(engineFor(), abcCycles(6)).filter((d) => d.detector === 'cycle_repeat');
    // Each cycle is 6 events (3 actions + 3 observations); the third repetition ends with the action at seq 2·6 + 4.
    expect(out[0]).toMatchObject({ level: 'warning', count: 3, atSeq: 16, loopStartSeq: 0 });
    expect(out[0].evidence).toMatchObject({ period: 3, stable: true, tool: 'read_page' });
    expect(out.some((d) => d.level === 'critical' && d.count === 5 && d.atSeq === 28)).toBe(true);
  });

  it('says nothing before the third repetition', () => {
    expect(runAll(engineFor(), abcCycles(2)).filter((d) => d.detector === 'cycle_repeat')).toEqual([]);
  });
});
