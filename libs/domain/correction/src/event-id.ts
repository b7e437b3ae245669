/**
 * Deterministic event ids for corrections and escalations. The same deviation redelivered (at-least-once
 * delivery) must yield the same correction id, so consumers downstream can de-duplicate.
 */

/** Two FNV-1a 32-bit passes with different offset bases: 64 bits is plenty for per-agent event ids. */
function fnv1a(text: string, basis: number): number {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** `prefix-<16 hex>`; parts are joined with a separator that cannot occur in ids (NUL). */
export function deterministicId(prefix: string, parts: ReadonlyArray<string | number | null | undefined>): string {
  const text = parts.map((p) => (p === null || p === undefined ? '' : String(p))).join('\u0000');
  const a = fnv1a(text, 0x811c9dc5).toString(16).padStart(8, '0');
  const b = fnv1a(text, 0x050c5d1f).toString(16).padStart(8, '0');
  return `${prefix}-${a}${b}`;
}
