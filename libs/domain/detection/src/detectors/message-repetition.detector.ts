/**
 * `monologue` (conformance README, "Other detectors") at each assistant message: it compares the
 * message with the previous assistant message of the run; a monologue is a chain of near-identical
 * messages with no action in between. (`semantic_repetition` is its own plug-in detector, in
 * src/semantic-repetition, because it may compare with another embedder.)
 */
import type { PolicySettings } from '@wayfinder/contracts';
import { shouldReport } from '../state/dedup';
import type { RunState } from '../state/run-state';
import { copySketch, sketchCosine } from '../state/sketch';
import type { DeviationDraft } from '../types';

export function detectMessageRepetition(
  run: RunState,
  sketch: Int32Array,
  seq: number,
  policy: PolicySettings,
): DeviationDraft[] {
  const out: DeviationDraft[] = [];
  run.ensureVectors();
  const vectors = run.data;
  const offset = run.vectorsOffset;
  const hadMessage = run.hasMessage;
  const similarity = hadMessage ? sketchCosine(sketch, 0, vectors, offset) : 0;
  const rounded = Math.round(similarity * 1000) / 1000;

  if (hadMessage && !run.actionSinceMessage && similarity >= policy.monologue.threshold) {
    run.monologueCount++;
  } else {
    run.monologueCount = 1;
    run.monologueStartSeq = seq;
  }
  copySketch(sketch, 0, vectors, offset);
  run.hasMessage = true;
  run.actionSinceMessage = false;

  const mono = policy.monologue;
  if (mono.enabled && run.monologueCount >= mono.warning) {
    const critical = run.monologueCount >= mono.critical;
    const threshold = critical ? mono.critical : mono.warning;
    const level = critical ? 'critical' : 'warning';
    if (shouldReport(run, `monologue|${level}|${run.monologueStartSeq}`, run.monologueCount, threshold)) {
      out.push({
        detector: 'monologue', level, count: run.monologueCount, atSeq: 0, loopStartSeq: run.monologueStartSeq,
        evidence: { similarity: rounded },
        message: `${run.monologueCount} near-identical messages in a row with no action: act on the plan instead of restating it.`,
      });
    }
  }
  return out;
}
