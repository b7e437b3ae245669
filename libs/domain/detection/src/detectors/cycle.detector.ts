/**
 * `cycle_repeat` (PROJECT-RULES.md P2): the same sequence of 2 to `cycle.maxPeriod` calls repeated
 * (A-B-C-A-B-C), judged when an action arrives over the prior records and the new call. Outcome-aware:
 * a cycle whose outcomes change at some position is progress (a poll between waits whose output moves);
 * only a cycle whose every position returned the same outcome each time is reported.
 */
import type { PolicySettings } from '@wayfinder/contracts';
import { hashHex } from '../fingerprint/hash';
import { shouldReport } from '../state/dedup';
import { RecordFlag, type RunHistory } from '../state/run-history';
import type { RunState } from '../state/run-state';
import type { DeviationDraft } from '../types';

type CycleSettings = NonNullable<PolicySettings['cycle']>;

export interface Cycle {
  period: number;
  /** Full repetitions in the periodic tail, the new call's included. */
  count: number;
  startSeq: number;
  stable: boolean;
  /** argsHashes of one period, newest first (the new call first). */
  block: number[];
}

/** The argsHash of the i-th call back, the new call being i = 0. */
function callAt(h: RunHistory, args: number, i: number): number {
  return i === 0 ? args : h.args(h.slot(i - 1));
}

/** A prior record that repeats no call: a poll whose fresh ids were masked (RecordFlag.MaskedArgs). */
function maskedAt(h: RunHistory, i: number): boolean {
  return i > 0 && h.masked(h.slot(i - 1));
}

/**
 * The shortest cycle (period ≥ 2, not all one call) that the new call continues at least twice. Polls
 * recorded with masked args are calls that never repeated (a fresh poll id each time): a cycle through
 * them is the poll rows' to judge, as upstream, where their exact args differ.
 */
export function findCycle(h: RunHistory, args: number, maxPeriod: number): Cycle | null {
  const calls = h.size + 1;
  for (let p = 2; p <= maxPeriod && 2 * p <= calls; p++) {
    if (callAt(h, args, p) !== args || maskedAt(h, p)) continue;
    let matched = 0;
    while (matched + p < calls && callAt(h, args, matched) === callAt(h, args, matched + p) && !maskedAt(h, matched) && !maskedAt(h, matched + p)) matched++;
    const tail = matched + p;
    const count = Math.floor(tail / p);
    if (count < 2) continue;
    const block: number[] = [];
    for (let i = 0; i < p; i++) block.push(callAt(h, args, i));
    if (block.every((b) => b === block[0])) continue;
    // Stable: every prior record of the tail has an outcome, the same at each position of the period.
    const results = new Map<number, number>();
    let stable = true;
    for (let i = 1; i < tail && stable; i++) {
      const s = h.slot(i - 1);
      if ((h.flags(s) & RecordFlag.Outcome) === 0) stable = false;
      else {
        const phase = i % p;
        const seen = results.get(phase);
        if (seen === undefined) results.set(phase, h.result(s));
        else if (seen !== h.result(s)) stable = false;
      }
    }
    return { period: p, count, startSeq: h.seq(h.slot(tail - 2)), stable, block };
  }
  return null;
}

export function detectCycle(run: RunState, tool: string, args: number, settings: CycleSettings): DeviationDraft | null {
  if (run.history.size + 1 < 2 * 2) return null;
  const cycle = findCycle(run.history, args, settings.maxPeriod);
  if (!cycle || !cycle.stable || cycle.count < settings.warning) return null;
  const critical = cycle.count >= settings.critical;
  const level = critical ? 'critical' : 'warning';
  const key = `cycle_repeat|${level}|${[...cycle.block].sort((a, b) => a - b).map(hashHex).join('/')}`;
  if (!shouldReport(run, key, cycle.count, critical ? settings.critical : settings.warning)) return null;
  return {
    detector: 'cycle_repeat',
    level,
    count: cycle.count,
    atSeq: 0,
    loopStartSeq: cycle.startSeq,
    evidence: { tool, period: cycle.period, stable: cycle.stable, cycleArgsHashes: cycle.block.map(hashHex).join(' ') },
    message: `The same ${cycle.period} calls (ending with "${tool}") repeated ${cycle.count} times with the same outcomes each time; the cycle is not making progress.`,
  };
}
