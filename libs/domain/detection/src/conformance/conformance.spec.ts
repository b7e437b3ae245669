/**
 * The conformance cases, from the repository's own copy (libs/domain/detection/conformance): the upstream
 * cases in `cases/` (kept in sync with ../shared/conformance by conformance-copy-in-sync.spec.ts) and the
 * project's own cases in `project-cases/` (rules in conformance/PROJECT-RULES.md). One `it` per case; a
 * missing folder is a failure, never a skip: the cases are the specification of the detectors.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type ConformanceCase, runConformanceCase } from './conformance-case';

const conformanceDir = resolve(__dirname, '../../conformance');

function casesIn(folder: string): string[] {
  const dir = join(conformanceDir, folder);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).sort() : [];
}

for (const folder of ['cases', 'project-cases']) {
  describe(`detector conformance (${folder})`, () => {
    const files = casesIn(folder);
    it(`finds the ${folder} in the repository`, () => {
      expect(files.length).toBeGreaterThan(0);
    });

    for (const file of files) {
      it(file.replace(/\.json$/, ''), () => {
        const testCase = JSON.parse(readFileSync(join(conformanceDir, folder, file), 'utf8')) as ConformanceCase;
        const { failures } = runConformanceCase(testCase);
        expect(failures).toEqual([]);
      });
    }
  });
}
