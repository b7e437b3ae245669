import { pairedBootstrap } from './bootstrap';

const mean = (values: number[]) => (idx: readonly number[]) => idx.reduce((s, i) => s + values[i], 0) / idx.length;

describe('paired bootstrap of a difference', () => {
  it('gives an interval excluding zero for a clear effect, including it for none, and the same numbers for the same seed', () => {
    const a = Array.from({ length: 100 }, (_, i) => (i % 10 < 3 ? 1 : 0)); // 30%
    const b = Array.from({ length: 100 }, (_, i) => (i % 10 < 8 ? 1 : 0)); // 80%, the same units improved
    const clear = pairedBootstrap(100, mean(a), mean(b), { seed: 7 });
    expect(clear.estimate).toBeCloseTo(0.5);
    expect(clear.ci95[0]).toBeGreaterThan(0.35);
    expect(clear.ci95[1]).toBeLessThan(0.65);
    const none = pairedBootstrap(100, mean(a), mean(a), { seed: 7 });
    expect(none).toEqual({ estimate: 0, ci95: [0, 0] });
    const noisy = pairedBootstrap(100, mean(a), mean([...a.slice(1), 1]), { seed: 7 });
    expect(noisy.ci95[0]).toBeLessThanOrEqual(0);
    expect(noisy.ci95[1]).toBeGreaterThanOrEqual(0);
    expect(pairedBootstrap(100, mean(a), mean(b), { seed: 7 })).toEqual(clear);
  });
});
