/**
 * Deviations and corrections per minute, by detector, over the last minutes (pure): what the fleet page
 * draws as small bars. A correction counts for the detectors of the deviations it answered.
 */
import type { DetectorName } from '@wayfinder/contracts';
import type { HistoryRecord } from './history-record';

export interface DetectorRate {
  readonly detector: DetectorName;
  /** Oldest minute first; the last entry is the current minute. */
  readonly deviations: readonly number[];
  readonly corrections: readonly number[];
}

export interface DetectorRates {
  /** ISO-8601 start of the oldest minute. */
  readonly from: string;
  readonly minutes: number;
  readonly detectors: readonly DetectorRate[];
}

export function detectorRatesOf(histories: ReadonlyArray<readonly HistoryRecord[]>, nowMs: number, minutes = 10): DetectorRates {
  const end = Math.floor(nowMs / 60_000) * 60_000 + 60_000;
  const start = end - minutes * 60_000;
  const rows = new Map<DetectorName, { deviations: number[]; corrections: number[] }>();
  const row = (d: DetectorName) => {
    let r = rows.get(d);
    if (!r) rows.set(d, (r = { deviations: new Array<number>(minutes).fill(0), corrections: new Array<number>(minutes).fill(0) }));
    return r;
  };
  for (const history of histories) {
    const detectorOf = new Map<string, DetectorName>();
    for (const r of history) if (r.kind === 'deviation') detectorOf.set(r.deviationId, r.detector);
    for (const r of history) {
      const t = Date.parse(r.ts);
      if (!(t >= start && t < end)) continue;
      const minute = Math.floor((t - start) / 60_000);
      if (r.kind === 'deviation') row(r.detector).deviations[minute]++;
      if (r.kind === 'correction') for (const d of new Set(r.deviationIds.map((id) => detectorOf.get(id)))) if (d) row(d).corrections[minute]++;
    }
  }
  const detectors = [...rows.entries()].map(([detector, r]) => ({ detector, ...r })).sort((a, b) => (a.detector < b.detector ? -1 : 1));
  return { from: new Date(start).toISOString(), minutes, detectors };
}
