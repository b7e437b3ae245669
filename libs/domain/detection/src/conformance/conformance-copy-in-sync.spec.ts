/**
 * The repository's copy of the conformance cases (libs/domain/detection/conformance/README.md and cases/)
 * must equal ../shared/conformance when that folder exists beside the repository. Without it (a clone on
 * its own) there is nothing to compare: the test is skipped and says so on stderr.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '../../../../..');
const upstream = resolve(repoRoot, '../shared/conformance');
const copy = resolve(__dirname, '../../conformance');
const present = existsSync(join(upstream, 'cases'));

if (!present) {
  process.stderr.write(`\n*** SKIPPED conformance sync check: ${upstream} not found (a clone without ../shared); the repository copy is used as is ***\n\n`);
}

function listing(dir: string): string[] {
  return readdirSync(join(dir, 'cases')).filter((f) => f.endsWith('.json')).sort();
}

(present ? describe : describe.skip)('conformance copy in sync with ../shared/conformance', () => {
  it('has the same case files', () => {
    expect(listing(copy)).toEqual(listing(upstream));
  });

  it('has the same README and case contents', () => {
    const differing = ['README.md', ...listing(upstream).map((f) => join('cases', f))].filter(
      (f) => !existsSync(join(copy, f)) || readFileSync(join(copy, f), 'utf8') !== readFileSync(join(upstream, f), 'utf8'),
    );
    expect(differing).toEqual([]);
  });
});
