/**
 * A tenant's tool-name glob (poll, exempt and dangerous tool lists) used to run as a backtracking RegExp
 * (`*` → `.*`): `*a*a*…*b` with twenty stars against a tool name of 128 `a`s takes C(128, 20) steps and
 * holds the event loop of every tenant's detection. Globs are now matched segment by segment: that input
 * is decided at once (this spec would not finish before), and the answers are the regex's on every input.
 */
import fc from 'fast-check';
import { compileGlobs, matchesSegments } from './glob';

/** What a glob meant all along: the whole name against `*` as "any run of characters". */
function reference(glob: string, name: string): boolean {
  return new RegExp(`^${glob.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(name);
}

describe('a tenant tool-name glob', () => {
  it('decides the input that stalls a backtracking matcher', () => {
    const glob = `${'*a'.repeat(20)}*b`;
    const matcher = compileGlobs([glob, 'poll_*_status']);
    expect(matcher('a'.repeat(128))).toBe(false);
    expect(matcher(`${'a'.repeat(127)}b`)).toBe(true);
    expect(matcher('poll_job_status')).toBe(true);
  });

  it('answers as the glob-as-regex does (small alphabet, every shape of stars)', () => {
    const text = (max: number) => fc.string({ unit: fc.constantFrom('a', 'b', '*', '.', '('), maxLength: max });
    fc.assert(
      fc.property(text(8), fc.string({ unit: fc.constantFrom('a', 'b', '.', '('), maxLength: 10 }), (glob, name) => {
        const expected = reference(glob, name);
        expect(compileGlobs([glob])(name)).toBe(expected);
        if (glob.includes('*')) expect(matchesSegments(name, glob.split('*'))).toBe(expected);
      }),
      { numRuns: 2_000 },
    );
  });
});
