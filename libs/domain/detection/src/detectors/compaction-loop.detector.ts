/**
 * `compaction_loop` (PROJECT-RULES.md P5): compactions following each other with little work between
 * (fewer than `compactionLoop.minActionsBetween` actions): the agent refills its context as fast as it is
 * compacted and gets nothing done. Counted at each compaction; actions are counted by the engine.
 */
import type { PolicySettings } from '@wayfinder/contracts';
import { shouldReport } from '../state/dedup';
import { More, type RunState } from '../state/run-state';
import type { DeviationDraft } from '../types';

type CompactionLoopSettings = NonNullable<PolicySettings['compactionLoop']>;

/** An action of the run: work between compactions (only once a compaction was seen). */
export function countActionForCompaction(run: RunState): void {
  const d = run.data;
  const o = run.moreOffset;
  if (d[o + More.HasCompaction] === 1) d[o + More.ActionsSinceCompaction]++;
}

export function detectCompactionLoop(run: RunState, seq: number, settings: CompactionLoopSettings): DeviationDraft | null {
  const more = run.data;
  const o = run.moreOffset;
  const short = more[o + More.HasCompaction] === 1 && more[o + More.ActionsSinceCompaction] < settings.minActionsBetween;
  const work = more[o + More.ActionsSinceCompaction];
  if (short) more[o + More.CompactionChain]++;
  else {
    more[o + More.CompactionChain] = 1;
    more[o + More.CompactionStartSeq] = seq;
  }
  more[o + More.HasCompaction] = 1;
  more[o + More.ActionsSinceCompaction] = 0;
  const chain = more[o + More.CompactionChain];
  if (chain < settings.warning) return null;
  const critical = chain >= settings.critical;
  const level = critical ? 'critical' : 'warning';
  if (!shouldReport(run, `compaction_loop|${level}|${more[o + More.CompactionStartSeq]}`, chain, critical ? settings.critical : settings.warning)) return null;
  return {
    detector: 'compaction_loop',
    level,
    count: chain,
    atSeq: 0,
    loopStartSeq: more[o + More.CompactionStartSeq],
    evidence: { compactions: chain, actionsSincePrevious: work, minActionsBetween: settings.minActionsBetween },
    message: `${chain} context compactions in a row with fewer than ${settings.minActionsBetween} actions between them; the context refills before any work is done.`,
  };
}
