/**
 * The candidate thresholds cross-validation chooses among: a small grid over the knobs that decide loop
 * recall and false positives on real traces (how alike a reworded call must be, how alike its result, how
 * many repeats with no progress, how many failures of one tool in a row, how many outcomes in a row that
 * failed or found nothing (P7)). Kept small on purpose: 53 traces cannot choose among hundreds of settings
 * without fitting noise. The any-text monologue (P6) stays at 4: it never decided a trace here, every
 * value tied, so it left the grid for the fruitless streak.
 */
import type { PolicyOverlay } from '@wayfinder/contracts';
import type { Candidate } from './cross-validate';

export function loopCandidates(options: { firstSuccessRepeat?: boolean } = {}): Candidate[] {
  const out: Candidate[] = [];
  // [repeats of a failure, repeats of a success] for a warning. A successful repeat is a signal, not yet a
  // deviation (DESIGN §5.3, P1), and the legit-work specs hold the line (a read repeated after a compaction is
  // not stuck), so reworded successes need three repeats; exact ones are the third identical call's
  // (nearDuplicate.identicalWarning, not in the grid: it follows the peers, and it flags no trail-dev trace). `firstSuccessRepeat` adds the settings that break it ([1, 1], [1, 2], [2, 2]), only to show
  // in `npm run eval` what they would change.
  const counts = [...(options.firstSuccessRepeat ? [[1, 1], [1, 2], [2, 2]] : []), [1, 3], [2, 3]];
  for (const [warning, successWarning] of counts) {
    for (const argsSimilarity of [0.6, 0.7, 0.8]) {
      for (const resultSimilarity of [0.81, 0.9]) {
        // At most 4: the peers' loop of the same failure from commands that keep changing has five failures.
        for (const failureStreakWarning of [3, 4]) {
          for (const fruitlessStreakWarning of [3, 4]) {
            const overlay: PolicyOverlay = {
              nearDuplicate: { warning, successWarning, argsSimilarity, resultSimilarity },
              loop: { failureStreakWarning, failureStreakCritical: failureStreakWarning * 2, fruitlessStreakWarning, fruitlessStreakCritical: fruitlessStreakWarning * 2 },
            };
            out.push({ name: `nd.warning=${warning}/${successWarning} nd.args=${argsSimilarity} nd.result=${resultSimilarity} failures=${failureStreakWarning} fruitless=${fruitlessStreakWarning}`, overlay });
          }
        }
      }
    }
  }
  return out;
}

/**
 * Drift (hashing embedder): the goal and milestone relevance thresholds around the profile's (0.1 / 0.15).
 * The plan-skip rule has no threshold; the curves are what a fold can choose.
 */
export function driftCandidates(): Candidate[] {
  // The profile's values first: a tie (the curves decide no trace) keeps them.
  const out: Candidate[] = [{ name: 'drift.goal=0.1 drift.milestone=0.15', overlay: { drift: { goalThreshold: 0.1, milestoneThreshold: 0.15 } } }];
  for (const goalThreshold of [0.05, 0.1, 0.15]) {
    for (const milestoneThreshold of [0.1, 0.15, 0.2]) {
      if (goalThreshold === 0.1 && milestoneThreshold === 0.15) continue;
      out.push({ name: `drift.goal=${goalThreshold} drift.milestone=${milestoneThreshold}`, overlay: { drift: { goalThreshold, milestoneThreshold } } });
    }
  }
  return out;
}
