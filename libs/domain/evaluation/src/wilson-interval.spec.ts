/** Wilson intervals: known values, bounds inside [0, 1], and no collapse at 0 or n successes. */
import fc from 'fast-check';
import { wilsonInterval } from './wilson';

describe('Wilson score interval', () => {
  it('matches published values (95%)', () => {
    // 14 of 18 (recall on trail-dev): 0.548 to 0.910.
    const a = wilsonInterval(14, 18);
    expect(a.low).toBeCloseTo(0.5479, 3);
    expect(a.high).toBeCloseTo(0.9100, 3);
    // 0 of 35: 0 to 0.0989.
    const b = wilsonInterval(0, 35);
    expect(b.low).toBe(0);
    expect(b.high).toBeCloseTo(0.0989, 3);
  });

  it('contains the observed proportion and stays within [0, 1]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 500 }), (n, k) => {
        const s = Math.min(k, n);
        const { low, high } = wilsonInterval(s, n);
        return low >= 0 && high <= 1 && low <= s / n + 1e-12 && high >= s / n - 1e-12 && high > low;
      }),
    );
  });

  it('is [0, 0] for an empty set', () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 0 });
  });
});
