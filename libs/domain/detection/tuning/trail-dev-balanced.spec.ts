/**
 * Guards the tuning of the `balanced` profile on shared/data/trail-dev (DESIGN §5.3 near-duplicate
 * calls): trace-level recall ≥ 0.70 with false-positive rate ≤ 0.10 and localization ≥ 0.50.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { scoreTrail } from './trail-score';

const dir = resolve(__dirname, '../../../../../shared/data/trail-dev');

describe('balanced profile on trail-dev', () => {
  it('meets the loop recall, false-positive and localization targets', () => {
    if (!existsSync(dir)) throw new Error(`trail-dev not found at ${dir}`);
    const score = scoreTrail(dir);
    expect(score.positives + score.negatives).toBe(53);
    expect(score.recall).toBeGreaterThanOrEqual(0.7);
    expect(score.falsePositiveRate).toBeLessThanOrEqual(0.1);
    expect(score.localized).toBeGreaterThanOrEqual(0.5);
  });
});
