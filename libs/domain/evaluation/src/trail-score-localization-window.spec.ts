import { scoreFamily, type ScoredDeviation } from './trail-score';
import type { TrailLabel } from './trail-labels';

const spec = { detectors: ['generic_repeat'] as const, category: 'resource abuse' };
const label = (seqs: number[]): TrailLabel[] => [{ file: 't.jsonl', traceId: 't', errors: [{ category: 'resource abuse', seqs }] }];
const at = (atSeq: number): ScoredDeviation[] => [{ detector: 'generic_repeat', level: 'critical', atSeq }];

describe('scoreFamily: localization window [s − 8, s + 2]', () => {
  it.each([
    [12, true],
    [20, true],
    [22, true],
    [11, false],
    [23, false],
  ])('a deviation at seq %i around a label at 20 localizes: %s', (atSeq, expected) => {
    const score = scoreFamily(label([20]), () => at(atSeq), spec);
    expect(score.flaggedPositives).toBe(1);
    expect(score.localized).toBe(expected ? 1 : 0);
  });

  it('accepts any labelled seq of any matching label', () => {
    const labels: TrailLabel[] = [
      {
        file: 't.jsonl',
        traceId: 't',
        errors: [
          { category: 'resource abuse', seqs: [5] },
          { category: 'resource abuse', seqs: [50, 60] },
        ],
      },
    ];
    expect(scoreFamily(labels, () => at(58), spec).localized).toBe(1);
    expect(scoreFamily(labels, () => at(30), spec).localized).toBe(0);
  });

  it('ignores seqs of labels of other categories', () => {
    const labels: TrailLabel[] = [
      {
        file: 't.jsonl',
        traceId: 't',
        errors: [
          { category: 'resource abuse', seqs: [50] },
          { category: 'formatting errors', seqs: [10] },
        ],
      },
    ];
    expect(scoreFamily(labels, () => at(10), spec).localized).toBe(0);
  });

  it('honours a custom window', () => {
    expect(scoreFamily(label([20]), () => at(10), { ...spec, window: { before: 10, after: 0 } }).localized).toBe(1);
    expect(scoreFamily(label([20]), () => at(21), { ...spec, window: { before: 10, after: 0 } }).localized).toBe(0);
  });
});
