/**
 * Paired bootstrap of a difference between two arms run on the same units (the same simulated agents):
 * resample unit indices with replacement, recompute the statistic on both arms, take the 2.5th and 97.5th
 * percentiles of the difference. Seeded (mulberry32), so the same inputs give the same interval.
 */

export interface Interval {
  readonly estimate: number;
  readonly ci95: readonly [number, number];
}

/** `statistic(indices)` of arm B minus that of arm A, with a 95% percentile interval. */
export function pairedBootstrap(
  units: number,
  statA: (indices: readonly number[]) => number,
  statB: (indices: readonly number[]) => number,
  options: { seed: number; resamples?: number },
): Interval {
  const all = Array.from({ length: units }, (_, i) => i);
  const estimate = statB(all) - statA(all);
  const resamples = options.resamples ?? 2000;
  const next = mulberry32(options.seed);
  const diffs: number[] = [];
  const picked = new Array<number>(units);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < units; i++) picked[i] = Math.floor(next() * units);
    const d = statB(picked) - statA(picked);
    if (Number.isFinite(d)) diffs.push(d);
  }
  diffs.sort((a, b) => a - b);
  const at = (q: number) => (diffs.length === 0 ? Number.NaN : diffs[Math.min(diffs.length - 1, Math.max(0, Math.floor(q * diffs.length)))]);
  return { estimate, ci95: [at(0.025), at(0.975)] };
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
