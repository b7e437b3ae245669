/** Grid search over near-duplicate settings on trail-dev (tuning aid; prints one line per setting). */
import { resolve, join } from 'node:path';
import { scoreTrail } from './trail-score';

const dir = resolve(process.argv[2] ?? join(__dirname, '../../../../../shared/data/trail-dev'));
const rows: string[] = [];
for (const argsSimilarity of [0.6, 0.7, 0.8]) {
  for (const resultSimilarity of [0.85, 0.9]) {
    for (const errorSimilarity of [0.5, 0.6, 0.7]) {
      for (const longArgsChars of [300, 800]) {
        for (const longArgsSimilarity of [0.9, 0.95, 1]) {
          const s = scoreTrail(dir, { nearDuplicate: { argsSimilarity, resultSimilarity, errorSimilarity, longArgsChars, longArgsSimilarity, warning: 1, critical: 4 } });
          rows.push(`${argsSimilarity}\t${resultSimilarity}\t${errorSimilarity}\t${longArgsChars}\t${longArgsSimilarity}\trecall=${s.recall.toFixed(2)}\tfpr=${s.falsePositiveRate.toFixed(2)}\tloc=${s.localized.toFixed(2)}`);
        }
      }
    }
  }
}
process.stdout.write(rows.join('\n') + '\n');
