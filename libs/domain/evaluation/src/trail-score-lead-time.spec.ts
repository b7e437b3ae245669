/**
 * Lead time beside recall and false-positive rate (lead-time.ts): steps (calls) from a caught loop's onset —
 * the first call of its repeated pattern, the deviation's loopStartSeq — to its first deviation.
 */
import type { DetectorName } from '@wayfinder/contracts';
import { callIndex, leadOf, summarizeLeads } from './lead-time';
import { scoreTrail, type ScoredDeviation } from './trail-score';
import type { TrailLabel } from './trail-labels';

function trace(traceId: string, ...errors: Array<[category: string, seqs: number[]]>): TrailLabel {
  return { file: `${traceId}.jsonl`, traceId, errors: errors.map(([category, seqs]) => ({ category, seqs })) };
}
function dev(detector: DetectorName, atSeq: number, loopStartSeq?: number): ScoredDeviation {
  return { detector, level: 'warning', atSeq, loopStartSeq };
}
/** n calls, each an action then an observation: action k (1-based) at seq 2(k − 1). */
function calls(n: number): { kind: string; seq: number }[] {
  return Array.from({ length: n * 2 }, (_, seq) => ({ kind: seq % 2 === 0 ? 'action' : 'observation', seq }));
}

describe('lead time of caught loops', () => {
  it('counts calls from the onset: the third identical call, at its action or its outcome, is 2 calls after the first', () => {
    const steps = callIndex(calls(5));
    expect(leadOf({ atSeq: 4, loopStartSeq: 0 }, steps)).toBe(2);
    expect(leadOf({ atSeq: 5, loopStartSeq: 0 }, steps)).toBe(2);
    // The eleventh identical call (OpenClaw's generic_repeat warning): 10 calls after the onset.
    expect(leadOf({ atSeq: 20, loopStartSeq: 0 }, callIndex(calls(11)))).toBe(10);
  });

  it('falls back to events without the trace, and has no lead without an onset', () => {
    expect(leadOf({ atSeq: 5, loopStartSeq: 0 })).toBe(5);
    expect(leadOf({ atSeq: 5 }, callIndex(calls(3)))).toBeNull();
  });

  it('summarizes mean, median and max, and says nothing when nothing was measured', () => {
    expect(summarizeLeads([2, 10, 3, 2], 'calls')).toEqual({ measured: 4, unit: 'calls', mean: 4.25, median: 2.5, max: 10 });
    expect(summarizeLeads([], 'calls')).toEqual({ measured: 0, unit: 'calls', mean: null, median: null, max: null });
  });

  it('scores the first loop deviation of each caught positive only, never a negative or a missed loop', () => {
    const labels = [trace('p1', ['resource abuse', [30]]), trace('p2', ['resource abuse', [12]]), trace('p3', ['resource abuse', [8]]), trace('n1')];
    const deviations: Record<string, ScoredDeviation[]> = {
      // The later deviation (a later escalation of the same loop) does not count: the first one does.
      p1: [dev('generic_repeat', 20, 0), dev('near_duplicate_calls', 4, 0)],
      p2: [dev('error_repeat', 12, 6), dev('drift', 2, 0)],
      n1: [dev('near_duplicate_calls', 9, 0)],
    };
    const score = scoreTrail(labels, (id) => deviations[id], undefined, () => callIndex(calls(20)));
    expect(score.loop.recall).toBeCloseTo(2 / 3);
    // p1: calls 1 → 3 (lead 2); p2: call 4 → call 7 (lead 3); drift is not in the loop family.
    expect(score.loop.leadTime).toEqual({ measured: 2, unit: 'calls', mean: 2.5, median: 2.5, max: 3 });
  });
});
