import type { DetectorName } from '@wayfinder/contracts';
import { scoreTrail, type ScoredDeviation } from './trail-score';
import type { TrailLabel } from './trail-labels';

function trace(traceId: string, ...errors: Array<[category: string, seqs: number[]]>): TrailLabel {
  return { file: `${traceId}.jsonl`, traceId, errors: errors.map(([category, seqs]) => ({ category, seqs })) };
}
function dev(detector: DetectorName, atSeq: number): ScoredDeviation {
  return { detector, level: 'warning', atSeq };
}

describe('scoreTrail: recall and false-positive rate', () => {
  const labels = [
    trace('p1', ['resource abuse', [20]]),
    trace('p2', ['resource abuse', [5]], ['formatting errors', [1]]),
    trace('p3', ['Resource Abuse', [9]]),
    trace('p4', ['resource abuse', [40]]),
    trace('n1', ['formatting errors', [3]]),
    trace('n2'),
    trace('n3', ['goal deviation', [7]]),
    trace('n4', ['tool-related', [2]]),
    trace('n5'),
  ];
  const deviations: Record<string, ScoredDeviation[]> = {
    p1: [dev('generic_repeat', 18)],
    p2: [dev('stagnation', 5)], // not a loop detector: p2 is not flagged
    p3: [dev('near_duplicate_calls', 30), dev('error_repeat', 31)],
    n1: [dev('ping_pong', 3)],
    n3: [dev('drift', 6)],
  };
  const score = scoreTrail(labels, (id) => deviations[id]);

  it('counts traces with a resource-abuse label (any case) as loop positives', () => {
    expect(score.traces).toBe(9);
    expect(score.loop.positives).toBe(4);
    expect(score.loop.negatives).toBe(5);
  });

  it('flags a trace only for loop-family detectors', () => {
    expect(score.loop.flaggedPositives).toBe(2);
    expect(score.loop.recall).toBeCloseTo(2 / 4);
    expect(score.loop.flaggedNegatives).toBe(1);
    expect(score.loop.falsePositiveRate).toBeCloseTo(1 / 5);
  });

  it('splits flagged traces per detector, one count per trace', () => {
    expect(score.loop.byDetector).toEqual({
      generic_repeat: { positives: 1, negatives: 0 },
      near_duplicate_calls: { positives: 1, negatives: 0 },
      error_repeat: { positives: 1, negatives: 0 },
      ping_pong: { positives: 0, negatives: 1 },
    });
  });

  it('scores drift deviations against goal-deviation labels', () => {
    expect(score.drift.positives).toBe(1);
    expect(score.drift.negatives).toBe(8);
    expect(score.drift.flaggedPositives).toBe(1);
    expect(score.drift.recall).toBe(1);
    expect(score.drift.falsePositiveRate).toBe(0);
    expect(score.drift.localized).toBe(1);
  });

  it('reports 0, not NaN, when a set has no positives', () => {
    const empty = scoreTrail([trace('n1')], () => [dev('generic_repeat', 1)]);
    expect(empty.loop.recall).toBe(0);
    expect(empty.loop.localized).toBe(0);
    expect(empty.loop.falsePositiveRate).toBe(1);
  });
});
