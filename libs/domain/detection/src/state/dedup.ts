/**
 * De-duplication of reports (DESIGN §5.3): a pattern already reported at a level is reported again only
 * when its count reaches a new multiple of the threshold.
 */
import type { RunState } from './run-state';

export function shouldReport(run: RunState, key: string, count: number, threshold: number): boolean {
  const multiple = Math.floor(count / Math.max(1, threshold));
  if (!run.reported) run.reported = new Map();
  const previous = run.reported.get(key);
  if (previous !== undefined && multiple <= previous) return false;
  if (run.reported.size >= 64 && previous === undefined) {
    // Bounded state: forget the oldest key (Map keeps insertion order).
    const oldest = run.reported.keys().next().value;
    if (oldest !== undefined) run.reported.delete(oldest);
  }
  run.reported.set(key, multiple);
  return true;
}
