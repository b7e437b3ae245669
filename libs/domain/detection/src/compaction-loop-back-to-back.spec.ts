/** compaction_loop: compaction after compaction with almost no work in between. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('compactions back to back', () => {
  it('warns at the third compaction in a row with fewer than three actions between, critical at the fifth', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 5; i++) {
      events.push(s.act('read_file', { path: `logs/part-${i}.log` }), s.ok('read_file', `part ${i}: 40k lines`));
      events.push(s.compaction());
    }
    const out = runAll(engineFor(), events).filter((d) => d.detector === 'compaction_loop');
    expect(out.map((d) => [d.level, d.count, d.atSeq, d.loopStartSeq])).toEqual([
      ['warning', 3, 8, 2],
      ['critical', 5, 14, 2],
    ]);
  });

  it('is not flagged when each compaction follows real work', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 5; i++) {
      for (let k = 0; k < 4; k++) events.push(s.act('edit_file', { path: `src/f${i}-${k}.ts` }), s.ok('edit_file', 'edited'));
      events.push(s.compaction());
    }
    expect(runAll(engineFor(), events).filter((d) => d.detector === 'compaction_loop')).toEqual([]);
  });
});
