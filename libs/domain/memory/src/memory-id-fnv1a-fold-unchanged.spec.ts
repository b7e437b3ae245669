/**
 * memoryId (long-term memory point ids in the vector store) is persisted or compared across runs and services: after the fold of its FNV-1a into
 * @wayfinder/contracts' fnv1a32 (issue 14) it must give exactly what it gave before. The function as it
 * was before the fold is kept here, verbatim, as the reference.
 */
import fc from 'fast-check';
import { memoryId } from './long-term-memory';

function memoryIdBefore(parts: readonly string[]): string {
  const text = parts.join('\u0000');
  const hash = (basis: number) => {
    let h = basis >>> 0;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(16).padStart(8, '0');
  };
  return `mem-${hash(0x811c9dc5)}${hash(0x050c5d1f)}`;
}

const anyText = fc.oneof(fc.string(), fc.fullUnicodeString(), fc.string16bits());

it('memoryId gives the same point id as before the FNV-1a fold', () => {
  fc.assert(
    fc.property(fc.array(anyText, { maxLength: 5 }), (parts) => {
      expect(memoryId(parts)).toBe(memoryIdBefore(parts));
    }),
    { numRuns: 1000 },
  );
});
