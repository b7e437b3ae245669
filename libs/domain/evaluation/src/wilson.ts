/**
 * Wilson score interval for a binomial proportion (successes out of n): the confidence interval reported
 * with recall and false-positive rate, honest on the small sets evaluation runs on (it stays inside [0, 1]
 * and does not collapse to a point at 0 or n successes, as the normal approximation does).
 */
export interface ProportionInterval {
  readonly low: number;
  readonly high: number;
}

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

export function wilsonInterval(successes: number, n: number, z = Z95): ProportionInterval {
  if (!(n > 0) || successes < 0 || successes > n) return { low: 0, high: n > 0 ? 1 : 0 };
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // At 0 or n successes the bound is exactly 0 or 1 (floating point leaves a residue of ~1e-17).
  return { low: successes === 0 ? 0 : Math.max(0, centre - half), high: successes === n ? 1 : Math.min(1, centre + half) };
}
