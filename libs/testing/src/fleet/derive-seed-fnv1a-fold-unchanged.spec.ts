/**
 * deriveSeed (every simulated fleet, and the figures measured on it) is persisted or compared across runs and services: after the fold of its FNV-1a into
 * @wayfinder/contracts' fnv1a32 (issue 14) it must give exactly what it gave before. The function as it
 * was before the fold is kept here, verbatim, as the reference.
 */
import fc from 'fast-check';
import { deriveSeed } from './prng';

function deriveSeedBefore(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const anyText = fc.oneof(fc.string(), fc.fullUnicodeString(), fc.string16bits());

it('deriveSeed gives the same seed as before the FNV-1a fold', () => {
  fc.assert(
    fc.property(fc.oneof(fc.integer(), fc.integer({ min: 0, max: 0xffffffff })), anyText, (seed, label) => {
      expect(deriveSeed(seed, label)).toBe(deriveSeedBefore(seed, label));
    }),
    { numRuns: 1000 },
  );
});
