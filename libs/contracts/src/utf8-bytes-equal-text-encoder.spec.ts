// utf8Bytes (the state documents' encoder) gives TextEncoder's bytes for any text, lone surrogates
// included, as a Uint8Array whose slice is a copy of its own bytes only.
import fc from 'fast-check';
import { utf8Bytes } from './bytes';

describe('utf8Bytes', () => {
  it('equals TextEncoder for any text', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.fullUnicodeString(), fc.string16bits(), fc.string({ minLength: 4000, maxLength: 9000 })), (text) => {
        expect(Array.from(utf8Bytes(text))).toEqual(Array.from(encoder.encode(text)));
      }),
      { numRuns: 500 },
    );
  });

  it('is a plain Uint8Array whose slice copies its own bytes', () => {
    const first = utf8Bytes('{"v":1}');
    const second = utf8Bytes('é→😀');
    expect(Object.getPrototypeOf(first)).toBe(Uint8Array.prototype);
    const copy = first.slice();
    expect(copy.buffer).not.toBe(first.buffer);
    expect(new TextDecoder().decode(copy)).toBe('{"v":1}');
    expect(new TextDecoder().decode(second)).toBe('é→😀');
  });
});
