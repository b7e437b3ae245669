// JSON Merge Patch as RFC 7396 defines it: the examples of its Appendix A, and properties over any JSON
// (applying a patch twice is applying it once, neither argument changes, `__proto__` stays a member).
import fc from 'fast-check';
import { mergePatch } from './merge-patch';

// RFC 7396 Appendix A: [original, patch, result].
const APPENDIX_A: Array<[unknown, unknown, unknown]> = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

describe('JSON merge patch (RFC 7396)', () => {
  it.each(APPENDIX_A)('patches %j with %j into %j', (original, patch, result) => {
    expect(mergePatch(original, patch)).toEqual(result);
  });

  it('gives the same result when the patch is applied twice, and changes neither argument', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (target, patch) => {
        const before = JSON.stringify([target, patch]);
        const once = mergePatch(target, patch);
        expect(mergePatch(once, patch)).toEqual(once);
        expect(JSON.stringify([target, patch])).toBe(before);
      }),
    );
  });

  it('keeps a __proto__ member of a parsed body as a member, never as the prototype', () => {
    const patched = mergePatch({ policy: {} }, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
    expect((patched as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(patched)).toEqual(['policy', '__proto__']);
  });
});
