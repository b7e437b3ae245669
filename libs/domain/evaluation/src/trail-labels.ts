/**
 * The label file of a TRAIL-style evaluation set (shared/data/README.md): one row per trace with the
 * human error labels and the seqs of the events each label points at. Parsed defensively because the
 * file comes from outside; a malformed row is an error naming the row, not a silently skipped trace.
 */

export interface TrailError {
  /** TRAIL category, lower-cased (`resource abuse`, `goal deviation`, ...). */
  readonly category: string;
  readonly spanId?: string;
  /** Seqs of the step events converted from the labelled span. */
  readonly seqs: readonly number[];
  readonly impact?: string;
  readonly description?: string;
}

export interface TrailLabel {
  readonly file: string;
  readonly traceId: string;
  readonly dataset?: string;
  readonly events?: number;
  readonly errors: readonly TrailError[];
}

export type TrailLabelsResult = { ok: true; value: TrailLabel[] } | { ok: false; error: string };

export function parseTrailLabels(raw: unknown): TrailLabelsResult {
  if (!Array.isArray(raw)) return { ok: false, error: 'labels: must be an array of trace rows' };
  const rows: TrailLabel[] = [];
  for (let i = 0; i < raw.length; i++) {
    const row = raw[i] as Record<string, unknown> | null;
    const where = `labels[${i}]`;
    if (!row || typeof row !== 'object') return { ok: false, error: `${where}: must be an object` };
    if (typeof row.file !== 'string' || row.file.length === 0) return { ok: false, error: `${where}.file: must be a non-empty string` };
    if (typeof row.traceId !== 'string' || row.traceId.length === 0) return { ok: false, error: `${where}.traceId: must be a non-empty string` };
    if (!Array.isArray(row.errors)) return { ok: false, error: `${where}.errors: must be an array` };
    const errors: TrailError[] = [];
    for (let j = 0; j < row.errors.length; j++) {
      const e = row.errors[j] as Record<string, unknown> | null;
      const at = `${where}.errors[${j}]`;
      if (!e || typeof e !== 'object') return { ok: false, error: `${at}: must be an object` };
      if (typeof e.category !== 'string') return { ok: false, error: `${at}.category: must be a string` };
      const seqs = e.seqs ?? [];
      if (!Array.isArray(seqs) || !seqs.every((s) => Number.isInteger(s))) return { ok: false, error: `${at}.seqs: must be an array of integers` };
      errors.push({
        category: normalizeCategory(e.category),
        spanId: typeof e.spanId === 'string' ? e.spanId : undefined,
        seqs: seqs as number[],
        impact: typeof e.impact === 'string' ? e.impact : undefined,
        description: typeof e.description === 'string' ? e.description : undefined,
      });
    }
    rows.push({
      file: row.file,
      traceId: row.traceId,
      dataset: typeof row.dataset === 'string' ? row.dataset : undefined,
      events: typeof row.events === 'number' ? row.events : undefined,
      errors,
    });
  }
  return { ok: true, value: rows };
}

/** Categories are compared lower-cased with collapsed whitespace, as TRAIL spells them inconsistently. */
export function normalizeCategory(category: string): string {
  return category.trim().toLowerCase().replace(/\s+/g, ' ');
}
