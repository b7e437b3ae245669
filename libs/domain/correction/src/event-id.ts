/**
 * Deterministic event ids for corrections and escalations. The same deviation redelivered (at-least-once
 * delivery) must yield the same correction id, so consumers downstream can de-duplicate.
 */

import { FNV1A_OFFSET_BASIS, fnv1a32Hex } from '@wayfinder/contracts';

/**
 * `prefix-<16 hex>`: two FNV-1a 32-bit passes with different offset bases (64 bits is plenty for per-agent
 * event ids); parts are joined with a separator that cannot occur in ids (NUL).
 */
export function deterministicId(prefix: string, parts: ReadonlyArray<string | number | null | undefined>): string {
  const text = parts.map((p) => (p === null || p === undefined ? '' : String(p))).join('\u0000');
  return `${prefix}-${fnv1a32Hex(text, FNV1A_OFFSET_BASIS)}${fnv1a32Hex(text, 0x050c5d1f)}`;
}
