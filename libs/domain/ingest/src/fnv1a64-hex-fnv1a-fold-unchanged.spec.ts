/**
 * fnv1a64Hex (unrecorded-value tokens, fixture trace and span ids) is persisted or compared across runs and services: after the fold of its FNV-1a into
 * @wayfinder/contracts' fnv1a32 (issue 14) it must give exactly what it gave before. The function as it
 * was before the fold is kept here, verbatim, as the reference.
 */
import fc from 'fast-check';
import { fnv1a64Hex } from './unrecorded';

function fnv1a64HexBefore(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c ^ (h1 >>> 16), 0x01000193) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

const anyText = fc.oneof(fc.string(), fc.fullUnicodeString(), fc.string16bits());

it('fnv1a64Hex gives the same hex as before the FNV-1a fold', () => {
  fc.assert(
    fc.property(anyText, (text) => {
      expect(fnv1a64Hex(text)).toBe(fnv1a64HexBefore(text));
    }),
    { numRuns: 1000 },
  );
});
