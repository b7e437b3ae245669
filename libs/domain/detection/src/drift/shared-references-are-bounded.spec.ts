/**
 * Drift's references are shared by content (int8Vector): a reference made again from the same bytes reads
 * the same values, a different one its own, and the cache that shares them stays within its bound.
 */
import { int8At, int8Vector, SHARED_REFERENCES, sharedReferenceCount } from './drift-run-state';

function bytes(seed: number, n = 256): Int8Array {
  const out = new Int8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = (x >>> 16) & 0xff;
  }
  return out;
}

const values = (v: string) => Array.from({ length: v.length }, (_, i) => int8At(v, i));

describe('shared drift references', () => {
  it('read back the bytes they were made from, whether made first or met again', () => {
    const a = bytes(1);
    const first = int8Vector(a);
    const again = int8Vector(Uint8Array.from(a, (b) => b & 0xff));
    const other = int8Vector(bytes(2));
    expect(values(first)).toEqual(Array.from(a));
    expect(values(again)).toEqual(Array.from(a));
    expect(values(other)).toEqual(Array.from(bytes(2)));
  });

  it('keep at most SHARED_REFERENCES in the cache, the recently met ones', () => {
    const kept = bytes(7);
    for (let i = 0; i < SHARED_REFERENCES * 2; i++) {
      int8Vector(bytes(1000 + i));
      if (i % 100 === 0) int8Vector(kept);
      expect(sharedReferenceCount()).toBeLessThanOrEqual(SHARED_REFERENCES);
    }
    expect(sharedReferenceCount()).toBe(SHARED_REFERENCES);
    expect(values(int8Vector(kept))).toEqual(Array.from(kept));
  });
});
