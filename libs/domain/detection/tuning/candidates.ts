/**
 * The candidate thresholds cross-validation chooses among: a small grid over the knobs that decide loop
 * recall and false positives on real traces (how alike a reworded call must be, how alike its result, how
 * many repeats with no progress, how many failures of one tool in a row, how many silent messages). Kept
 * small on purpose: 53 traces cannot choose among hundreds of settings without fitting noise.
 */
import type { PolicyOverlay } from '@wayfinder/contracts';
import type { Candidate } from './cross-validate';

export function loopCandidates(): Candidate[] {
  const out: Candidate[] = [];
  for (const [warning, successWarning] of [[1, 1], [1, 2], [2, 2], [1, 3]]) {
    for (const argsSimilarity of [0.6, 0.7, 0.8]) {
      for (const resultSimilarity of [0.81, 0.9]) {
        for (const failureStreakWarning of [4, 6]) {
          for (const noActionWarning of [4, 6]) {
            const overlay: PolicyOverlay = {
              nearDuplicate: { warning, successWarning, argsSimilarity, resultSimilarity },
              loop: { failureStreakWarning, failureStreakCritical: failureStreakWarning * 2 },
              monologue: { noActionWarning, noActionCritical: noActionWarning * 2 },
            };
            out.push({ name: `nd.warning=${warning}/${successWarning} nd.args=${argsSimilarity} nd.result=${resultSimilarity} failures=${failureStreakWarning} silent=${noActionWarning}`, overlay });
          }
        }
      }
    }
  }
  return out;
}
