import { SmallMap } from './small-map';

/** The order and answers of a Map for the same operations. */
function both(ops: Array<['set', string, number] | ['delete', string]>): void {
  const small = new SmallMap<number>();
  const map = new Map<string, number>();
  for (const op of ops) {
    if (op[0] === 'set') {
      small.set(op[1], op[2]);
      map.set(op[1], op[2]);
    } else expect(small.delete(op[1])).toBe(map.delete(op[1]));
    expect([...small]).toEqual([...map]);
    expect(small.size).toBe(map.size);
    expect([...small.keys()]).toEqual([...map.keys()]);
    for (const k of ['', 'a', 'b', 'c']) {
      expect(small.get(k)).toBe(map.get(k));
      expect(small.has(k)).toBe(map.has(k));
    }
  }
}

describe('SmallMap', () => {
  it('answers as a Map with one key, the empty key included', () => {
    both([['set', '', 1], ['set', '', 2], ['delete', 'a'], ['delete', ''], ['set', 'a', 3]]);
  });

  it('answers as a Map past one key, insertion order kept through delete and set', () => {
    both([['set', 'a', 1], ['set', 'b', 2], ['delete', 'a'], ['set', 'a', 3], ['set', 'c', 4], ['set', 'b', 5], ['delete', 'c']]);
  });

  it('builds from entries and turns into them', () => {
    expect(Object.fromEntries(new SmallMap([['m1', 1], ['m2', 2]]))).toEqual({ m1: 1, m2: 2 });
    expect(Object.fromEntries(new SmallMap<number>())).toEqual({});
  });
});
