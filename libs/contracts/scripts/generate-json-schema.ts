/** Writes libs/contracts/json-schema/*.schema.json from the zod schemas (`npm run schemas:generate`). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateJsonSchemas } from '../src/json-schema';

const outDir = join(__dirname, '..', 'json-schema');
mkdirSync(outDir, { recursive: true });
for (const [file, text] of Object.entries(generateJsonSchemas())) {
  writeFileSync(join(outDir, file), text);
  process.stdout.write(`wrote ${join('libs/contracts/json-schema', file)}\n`);
}
