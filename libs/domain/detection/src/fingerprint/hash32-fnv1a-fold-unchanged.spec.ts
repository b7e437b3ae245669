/**
 * hash32 (fingerprints kept in saved detector state) is persisted or compared across runs and services: after the fold of its FNV-1a into
 * @wayfinder/contracts' fnv1a32 (issue 14) it must give exactly what it gave before. The function as it
 * was before the fold is kept here, verbatim, as the reference.
 */
import fc from 'fast-check';
import { hash32 } from './hash';

function hash32Before(text: string, seed = 0x811c9dc5): number {
  let h = seed | 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h === 0 ? 1 : h;
}

const anyText = fc.oneof(fc.string(), fc.fullUnicodeString(), fc.string16bits());

it('hash32 gives the same fingerprint as before the FNV-1a fold, with the default seed and others', () => {
  fc.assert(
    fc.property(anyText, fc.oneof(fc.integer(), fc.integer({ min: 0, max: 0xffffffff })), (text, seed) => {
      expect(hash32(text)).toBe(hash32Before(text));
      expect(hash32(text, seed)).toBe(hash32Before(text, seed));
    }),
    { numRuns: 1000 },
  );
});
