/** cycle_repeat is outcome-aware: a cycle whose outcomes move (poll, wait, poll) is progress. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('a repeated cycle whose outcomes change', () => {
  it('is not flagged while one position of the cycle returns something new each time', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 12; i++) {
      events.push(s.act('check_job', { id: 'export-42' }), s.ok('check_job', `exported ${i * 8} of 96 tables`));
      events.push(s.act('wait', { seconds: 10 }), s.ok('wait', 'waited'));
    }
    // (ping_pong, the upstream rule, still warns on the alternation at its own threshold of 10.)
    expect(runAll(engineFor(), events).filter((d) => d.detector === 'cycle_repeat')).toEqual([]);
  });
});
