/** Legitimate work: after a compaction the agent lost its context; reading the same file again is recovery. */
import { engineFor, runAll, steps } from './test-support/step-builder';

const file = 'export function total(items) {\n  return items.reduce((sum, i) => sum + i.price, 0);\n}\n';

describe('the same read after a compaction', () => {
  it('flags nothing when the file read before the compaction is read again after it', () => {
    const s = steps();
    const events = [
      s.act('read_file', { path: 'src/cart.ts' }),
      s.ok('read_file', file),
      s.act('read_file', { path: 'src/cart.ts' }),
      s.ok('read_file', file),
      s.compaction(),
      s.act('read_file', { path: 'src/cart.ts' }),
      s.ok('read_file', file),
      s.act('edit_file', { path: 'src/cart.ts', find: 'i.price', replace: 'i.price * i.qty' }),
      s.ok('edit_file', 'edited src/cart.ts: 1 replacement'),
    ];
    expect(runAll(engineFor(), events)).toEqual([]);
  });

  it('flags a third identical read before the compaction once, and the read after it not at all', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 3; i++) events.push(s.act('read_file', { path: 'src/cart.ts' }), s.ok('read_file', file));
    const third = events[4].seq;
    events.push(s.compaction(), s.act('read_file', { path: 'src/cart.ts' }), s.ok('read_file', file));
    expect(runAll(engineFor(), events).map((d) => [d.detector, d.level, d.atSeq])).toEqual([['near_duplicate_calls', 'warning', third]]);
  });

  it('flags the same read repeated back to back without a compaction in between', () => {
    const s = steps();
    const events = [];
    for (let i = 0; i < 4; i++) events.push(s.act('read_file', { path: 'src/cart.ts' }), s.ok('read_file', file));
    expect(runAll(engineFor(), events).map((d) => d.detector)).toEqual(['near_duplicate_calls']);
  });
});
