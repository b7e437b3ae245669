/**
 * shortHash (milestone, anchor and anchor-change ids) is persisted or compared across runs and services: after the fold of its FNV-1a into
 * @wayfinder/contracts' fnv1a32 (issue 14) it must give exactly what it gave before. The function as it
 * was before the fold is kept here, verbatim, as the reference.
 */
import fc from 'fast-check';
import { shortHash } from './ids';

function shortHashBefore(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36).padStart(7, '0').slice(-6);
}

const anyText = fc.oneof(fc.string(), fc.fullUnicodeString(), fc.string16bits());

it('shortHash gives the same id as before the FNV-1a fold', () => {
  fc.assert(
    fc.property(anyText, (text) => {
      expect(shortHash(text)).toBe(shortHashBefore(text));
    }),
    { numRuns: 1000 },
  );
});
