/**
 * The one FNV-1a (issue 14): the published FNV-1a 32-bit test vectors (on ASCII, where UTF-16 code
 * units are the bytes), and the same value as the textbook loop on random strings, ranges and bases.
 */
import fc from 'fast-check';
import { FNV1A_OFFSET_BASIS, fnv1a32, fnv1a32Hex, fnv1aStep } from './hash';

function textbook(text: string, basis: number, start: number, end: number): number {
  let h = basis >>> 0;
  for (let i = start; i < end; i++) {
    h ^= text.charCodeAt(i);
    h = Number((BigInt(h >>> 0) * 0x01000193n) & 0xffffffffn);
  }
  return h >>> 0;
}

const anyText = fc.oneof(fc.string(), fc.fullUnicodeString(), fc.string16bits());

describe('fnv1a32', () => {
  it('gives the published FNV-1a 32 test vectors', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
    expect(fnv1a32Hex('a')).toBe('e40c292c');
    expect(fnv1a32Hex('', 0x050c5d1f)).toBe('050c5d1f');
  });

  it('equals the textbook loop (BigInt multiply) on random strings, bases and ranges', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 0, max: 0xffffffff }), fc.nat(), fc.nat(), (text, basis, a, b) => {
        const start = text.length === 0 ? 0 : a % (text.length + 1);
        const end = start + (text.length - start === 0 ? 0 : b % (text.length - start + 1));
        expect(fnv1a32(text, basis, start, end)).toBe(textbook(text, basis, start, end));
        expect(fnv1a32(text)).toBe(textbook(text, FNV1A_OFFSET_BASIS, 0, text.length));
      }),
      { numRuns: 1000 },
    );
  });

  it('is the fold of fnv1aStep', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        let h = FNV1A_OFFSET_BASIS;
        for (let i = 0; i < text.length; i++) h = fnv1aStep(h, text.charCodeAt(i));
        expect(h >>> 0).toBe(fnv1a32(text));
      }),
    );
  });
});
