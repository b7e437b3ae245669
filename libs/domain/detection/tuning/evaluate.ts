/**
 * `npm run eval`: the balanced profile on ../shared/data/trail-dev (loop recall, false-positive rate,
 * localization, per detector). The data stays outside the repository: without it this says so and exits 0.
 * Usage: node bin/run-ts.js libs/domain/detection/tuning/evaluate.ts [DIR]
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { scoreTrail } from './trail-score';

const dir = resolve(process.argv[2] ?? join(__dirname, '../../../../../shared/data/trail-dev'));
if (!existsSync(join(dir, 'labels.json'))) {
  process.stdout.write(`SKIPPED: no trail-dev data at ${dir} (evaluation data lives outside the repository)\n`);
} else {
  const score = scoreTrail(dir);
  process.stdout.write(`trail-dev (${dir}), balanced profile, all traces:\n${JSON.stringify(score, null, 1)}\n`);
}
