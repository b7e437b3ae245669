/**
 * partitionOf (a key's partition on the in-process bus) is persisted or compared across runs and services: after the fold of its FNV-1a into
 * @wayfinder/contracts' fnv1a32 (issue 14) it must give exactly what it gave before. The function as it
 * was before the fold is kept here, verbatim, as the reference.
 */
import fc from 'fast-check';
import { partitionOf } from './in-process.bus';

function partitionOfBefore(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}

const anyText = fc.oneof(fc.string(), fc.fullUnicodeString(), fc.string16bits());

it('partitionOf gives the same partition as before the FNV-1a fold', () => {
  fc.assert(
    fc.property(anyText, fc.integer({ min: 1, max: 1024 }), (key, partitions) => {
      expect(partitionOf(key, partitions)).toBe(partitionOfBefore(key, partitions));
    }),
    { numRuns: 1000 },
  );
});
