/** compaction_loop (P5): compaction after compaction with no work in between, and the same with real work between. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('compactions back to back', () => {
  it('warns at the third compaction with nothing done since the one before, critical at the fifth (OpenHands condensation loop)', () => {
    const s = steps();
    const events = [s.act('read_file', { path: 'logs/app.log' }), s.ok('read_file', '40k lines')];
    for (let i = 0; i < 6; i++) events.push(s.compaction());
    const out = runAll(engineFor(), events).filter((d) => d.detector === 'compaction_loop');
    expect(out.map((d) => [d.level, d.count, d.atSeq, d.loopStartSeq])).toEqual([
      ['warning', 3, 4, 2],
      ['critical', 5, 6, 2],
    ]);
    expect(out[0].evidence).toMatchObject({ compactions: 3, actionsSincePrevious: 0, minActionsBetween: 1 });
  });

  it('is not flagged when a call is made between compactions, as in OpenHands\' twin (an `ls` between condensations)', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 10; i++) {
      events.push(s.compaction());
      if (i < 9) events.push(s.act('execute_bash', { command: `ls ${i}` }), s.ok('execute_bash', 'file1.txt\nfile2.txt'));
    }
    expect(runAll(engineFor(), events).filter((d) => d.detector === 'compaction_loop')).toEqual([]);
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

  it('a stricter policy still chains compactions with little work between', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 4; i++) events.push(s.act('read_file', { path: `logs/part-${i}.log` }), s.ok('read_file', `part ${i}`), s.compaction());
    const out = runAll(engineFor({ compactionLoop: { minActionsBetween: 3 } }), events).filter((d) => d.detector === 'compaction_loop');
    expect(out.map((d) => [d.level, d.count, d.atSeq])).toEqual([['warning', 3, 8]]);
  });
});
