import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateJsonSchemas } from './json-schema';

const dir = join(__dirname, '..', 'json-schema');

describe('generated JSON Schema', () => {
  it('is committed and up to date with the zod schemas (run `npm run schemas:generate` when this fails)', () => {
    const expected = generateJsonSchemas();
    const committed = readdirSync(dir).filter((f) => f.endsWith('.schema.json')).sort();
    expect(committed).toEqual(Object.keys(expected).sort());
    for (const [file, text] of Object.entries(expected)) {
      expect(readFileSync(join(dir, file), 'utf8')).toBe(text);
    }
  });

  it('describes the seven step kinds', () => {
    const step = JSON.parse(generateJsonSchemas()['wayfinder.step.v1.schema.json']);
    const text = JSON.stringify(step);
    for (const kind of ['action', 'observation', 'message', 'milestone', 'feedback', 'compaction', 'plan']) {
      expect(text).toContain(`"const":"${kind}"`);
    }
  });
});
