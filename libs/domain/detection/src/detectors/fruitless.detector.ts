/**
 * `error_repeat` for work that keeps coming back empty (PROJECT-RULES.md P7): the same tool's outcomes,
 * one after another, each a failure or a success that found nothing ("not found", `matches: []`). A
 * search rephrased again and again that never finds anything makes no progress whatever its wording, and
 * neither the exact-repeat rows nor the near-duplicate rule see it when the args keep changing. Judged
 * when the observation arrives; outcomes of other tools are skipped, as in P3.
 */
import type { PolicySettings } from '@wayfinder/contracts';
import { shouldReport } from '../state/dedup';
import { More, type RunState } from '../state/run-state';
import type { DeviationDraft } from '../types';

/** What an outcome brought: something (the streak ends), a failure, or a success that found nothing. */
export const enum Outcome {
  Progress = 0,
  Failed = 1,
  Empty = 2,
}
const COUNT_MASK = 0xffff;
const HAS_EMPTY = 0x10000;
/**
 * The low 15 bits of the seq of the streak's first call, kept above HAS_EMPTY in the same word. The start
 * must not be looked up in the history: a streak longer than the history window would seem to start later
 * at every outcome, and each new start would be a new pattern reported again (and again).
 */
const START_SHIFT = 17;
const START_MASK = 0x7fff;

/** Counts the outcome into the run's streak; returns the deviation when the streak reaches a threshold. */
export function detectFruitless(
  run: RunState,
  tool: string,
  toolHash: number,
  outcome: Outcome,
  loop: PolicySettings['loop'],
  /** Seq of the call this outcome answers; `seq` the observation's. */
  callSeq: number,
  seq: number,
): DeviationDraft | null {
  const warning = loop.fruitlessStreakWarning;
  if (warning === undefined) return null;
  const d = run.data;
  const o = run.moreOffset;
  if (outcome === Outcome.Progress) {
    if (d[o + More.FruitlessTool] === toolHash) d[o + More.FruitlessCount] = 0;
    return null;
  }
  if (d[o + More.FruitlessTool] !== toolHash || d[o + More.FruitlessCount] === 0) {
    d[o + More.FruitlessTool] = toolHash;
    d[o + More.FruitlessCount] = 0;
  }
  // The count in the low bits, and whether a success that found nothing is among them: a streak of
  // failures only is the upstream error_repeat's and P3's, which judge it at the next call.
  const previous = d[o + More.FruitlessCount];
  const count = Math.min(COUNT_MASK, (previous & COUNT_MASK) + 1);
  const hasEmpty = (previous & HAS_EMPTY) | (outcome === Outcome.Empty ? HAS_EMPTY : 0);
  const startBits = count === 1 ? callSeq & START_MASK : (previous >>> START_SHIFT) & START_MASK;
  d[o + More.FruitlessCount] = count | hasEmpty | (startBits << START_SHIFT);
  if (count < warning || hasEmpty === 0) return null;
  const criticalAt = loop.fruitlessStreakCritical ?? Number.POSITIVE_INFINITY;
  const critical = count >= criticalAt;
  const level = critical ? 'critical' : 'warning';
  // The newest seq up to this observation with those low bits: exact for a streak of fewer than 32,768 seqs.
  const start = Math.max(0, seq - ((seq - startBits) & START_MASK));
  if (!shouldReport(run, `error_repeat|${level}|${toolHash}:fruitless:${start}`, count, critical ? criticalAt : warning)) return null;
  return {
    detector: 'error_repeat',
    level,
    count,
    atSeq: 0,
    loopStartSeq: start,
    evidence: { tool, fruitless: true },
    message: `"${tool}" came back with an error or with nothing found ${count} times in a row, with changing arguments; rewording the same attempt is not working, change the approach.`,
  };
}

/** Progress seen outside the calls (a milestone done, the position moving, a compaction): the streak ends. */
export function clearFruitless(run: RunState): void {
  run.data[run.moreOffset + More.FruitlessCount] = 0;
}
