/** Target signatures (fingerprint/text-of.ts): distinct targets never read as the same one; shared ones do. */
import fc from 'fast-check';
import { distinctTargets, paginationOf, targetSignature } from './text-of';

const segment = fc.stringMatching(/^[a-z][a-z0-9]{2,10}$/);
const path = fc.tuple(segment, segment, fc.constantFrom('.ts', '.py', '.md', '.json')).map(([a, b, ext]) => `src/${a}/${b}${ext}`);

describe('target signatures', () => {
  it('tell two distinct paths apart, every time (a 6-bit hash confused them once in 64)', () => {
    fc.assert(
      fc.property(path, path, (a, b) => {
        fc.pre(a !== b);
        return distinctTargets(targetSignature(`open ${a}`), targetSignature(`open ${b}`));
      }),
      { numRuns: 3000 },
    );
  });

  it('see the same path as the same target whatever the words around it', () => {
    fc.assert(fc.property(path, (a) => !distinctTargets(targetSignature(`read ${a} please`), targetSignature(`show me ${a}`))), { numRuns: 300 });
  });

  it('make two pages of one listing distinct targets, and the same page the same', () => {
    const page = (n: number) => targetSignature('/billing/2025 50', paginationOf({ folder: '/billing/2025', page: n, pageSize: 50 }));
    expect(distinctTargets(page(2), page(3))).toBe(true);
    expect(distinctTargets(page(3), page(3))).toBe(false);
  });
});
