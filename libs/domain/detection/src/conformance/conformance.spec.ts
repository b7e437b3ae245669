/**
 * The shared conformance cases (shared/conformance/cases, one `it` per case). A missing folder is a
 * failure, never a skip: the cases are the specification of the tool-loop detectors.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type ConformanceCase, runConformanceCase } from './conformance-case';

const repoRoot = resolve(__dirname, '../../../../..');
const casesDir = resolve(repoRoot, '../shared/conformance/cases');
const files = existsSync(casesDir) ? readdirSync(casesDir).filter((f) => f.endsWith('.json')).sort() : [];

describe('detector conformance', () => {
  it('finds the shared conformance cases', () => {
    if (!existsSync(casesDir)) throw new Error(`conformance cases not found at ${casesDir} (expected ../shared/conformance/cases from the repo root)`);
    expect(files.length).toBeGreaterThan(0);
  });

  for (const file of files) {
    it(file.replace(/\.json$/, ''), () => {
      const testCase = JSON.parse(readFileSync(join(casesDir, file), 'utf8')) as ConformanceCase;
      const { failures } = runConformanceCase(testCase);
      expect(failures).toEqual([]);
    });
  }
});
