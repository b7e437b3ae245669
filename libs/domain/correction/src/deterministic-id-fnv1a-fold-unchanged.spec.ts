/**
 * deterministicId (correction and escalation ids, which consumers de-duplicate on) is persisted or compared across runs and services: after the fold of its FNV-1a into
 * @wayfinder/contracts' fnv1a32 (issue 14) it must give exactly what it gave before. The function as it
 * was before the fold is kept here, verbatim, as the reference.
 */
import fc from 'fast-check';
import { deterministicId } from './event-id';

function fnv1a(text: string, basis: number): number {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

function deterministicIdBefore(prefix: string, parts: ReadonlyArray<string | number | null | undefined>): string {
  const text = parts.map((p) => (p === null || p === undefined ? '' : String(p))).join('\u0000');
  const a = fnv1a(text, 0x811c9dc5).toString(16).padStart(8, '0');
  const b = fnv1a(text, 0x050c5d1f).toString(16).padStart(8, '0');
  return `${prefix}-${a}${b}`;
}

const anyText = fc.oneof(fc.string(), fc.fullUnicodeString(), fc.string16bits());

const part = fc.oneof(anyText, fc.integer(), fc.constant(null), fc.constant(undefined));

it('deterministicId gives the same id as before the FNV-1a fold', () => {
  fc.assert(
    fc.property(fc.constantFrom('cor', 'esc'), fc.array(part, { maxLength: 6 }), (prefix, parts) => {
      expect(deterministicId(prefix, parts)).toBe(deterministicIdBefore(prefix, parts));
    }),
    { numRuns: 1000 },
  );
});
