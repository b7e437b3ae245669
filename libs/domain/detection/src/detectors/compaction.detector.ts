/**
 * `compaction_loop_persisted` (conformance README): a compaction arms a guard over the next `window`
 * observations; the same (tool, args, result) seen `window` times within it means the loop survived.
 */
import { hashHex } from '../fingerprint/hash';
import { NO_TRIPLES, type RunState } from '../state/run-state';
import type { DeviationDraft } from '../types';

export function armCompactionGuard(run: RunState, window: number): void {
  run.guardLeft = window;
  run.guardWindow = window;
  run.guardTriples = NO_TRIPLES;
}

export function observeUnderGuard(
  run: RunState,
  tool: string,
  triple: [tool: number, args: number, result: number],
  firstSeq: number,
): DeviationDraft | null {
  if (run.guardLeft <= 0) return null;
  // A new array of the exact length (a pushed-to one reserves room for 16 more, per run).
  run.guardTriples = run.guardTriples.concat(triple[0], triple[1], triple[2], firstSeq);
  run.guardLeft--;
  let count = 0;
  let startSeq = firstSeq;
  for (let i = 0; i < run.guardTriples.length; i += 4) {
    if (run.guardTriples[i] === triple[0] && run.guardTriples[i + 1] === triple[1] && run.guardTriples[i + 2] === triple[2]) {
      if (count === 0) startSeq = run.guardTriples[i + 3];
      count++;
    }
  }
  const window = run.guardWindow;
  if (run.guardLeft <= 0) run.guardTriples = NO_TRIPLES;
  if (count < window) return null;
  run.guardLeft = 0;
  return {
    detector: 'compaction_loop_persisted',
    level: 'critical',
    count: window,
    atSeq: 0,
    loopStartSeq: startSeq,
    evidence: { tool, argsHash: hashHex(triple[1]), resultHash: hashHex(triple[2]) },
    message: `After the context was compacted, "${tool}" returned the same result ${window} times: the loop survived compaction.`,
  };
}

/** An observation that counts toward the window but can never match (an exempt tool's). */
export function skipUnderGuard(run: RunState): void {
  if (run.guardLeft <= 0) return;
  run.guardLeft--;
  if (run.guardLeft <= 0) run.guardTriples = NO_TRIPLES;
}
