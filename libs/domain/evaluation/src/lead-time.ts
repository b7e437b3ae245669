/**
 * Lead time (issue #32): how many steps a caught loop ran before its first deviation. Reported beside
 * recall and false-positive rate, because a loop caught at its eleventh call is caught, and costly.
 *
 * - A *step* is a tool call (an `action` event), as the detectors count steps (stagnation, the ladder's
 *   tolerance); observations, messages and milestones between calls are not steps of their own. Without the
 *   trace's events the fallback unit is the event (seq difference), and the summary says which unit it used.
 * - The *onset* of a loop is the first step of its repeated pattern. Labelled sets mark where a loop is
 *   (TRAIL marks its last repeat), not where it began, so the onset is the deviation's own `loopStartSeq`:
 *   the first call of the pattern the detector matched (the chain's first call, the streak's first outcome,
 *   the oldest record of the cycle…).
 * - Per caught loop (a flagged positive trace), the lead is measured on the trace's first family deviation
 *   (the earliest `atSeq`): steps(atSeq) − steps(loopStartSeq), where steps(seq) is the number of calls at or
 *   before that seq. The third identical call has a lead of 2 (calls 2 and 3 after the onset at call 1).
 */

/** The number of steps (calls) at or before a seq of one trace. */
export type StepIndex = (seq: number) => number;

export type LeadUnit = 'calls' | 'events';

export interface LeadTime {
  /** Caught loops the lead was measured on (their first deviation carries its onset). */
  readonly measured: number;
  readonly unit: LeadUnit;
  /** Mean and median lead in `unit`; null when nothing was measured. */
  readonly mean: number | null;
  readonly median: number | null;
  readonly max: number | null;
}

/** A step index over a trace's events: steps(seq) = calls with a seq at or below it. */
export function callIndex(events: readonly { kind?: unknown; seq?: unknown }[]): StepIndex {
  const calls = events
    .filter((e) => e.kind === 'action' && typeof e.seq === 'number' && Number.isFinite(e.seq))
    .map((e) => e.seq as number)
    .sort((a, b) => a - b);
  return (seq) => {
    let lo = 0;
    let hi = calls.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (calls[mid] <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Lead of one deviation: steps from its onset to it (never negative); null without an onset. */
export function leadOf(deviation: { atSeq: number; loopStartSeq?: number }, steps?: StepIndex): number | null {
  const onset = deviation.loopStartSeq;
  if (typeof onset !== 'number' || !Number.isFinite(onset)) return null;
  const lead = steps ? steps(deviation.atSeq) - steps(onset) : deviation.atSeq - onset;
  return Math.max(0, lead);
}

export function summarizeLeads(leads: readonly number[], unit: LeadUnit): LeadTime {
  if (leads.length === 0) return { measured: 0, unit, mean: null, median: null, max: null };
  const sorted = [...leads].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { measured: sorted.length, unit, mean: sorted.reduce((s, x) => s + x, 0) / sorted.length, median, max: sorted[sorted.length - 1] };
}
