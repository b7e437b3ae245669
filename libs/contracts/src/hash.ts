/**
 * The one FNV-1a of the code base (issue 14): partition choice, milestone ids, event ids, memory point
 * ids, fingerprints, unrecorded-value tokens, fleet seeds and the hashing embedder's features all hash
 * with it. It lives in contracts because what it yields is persisted and compared across services (ids on
 * topics and in stores, fingerprints in saved state, embedding vectors): its outputs must never change.
 * Non-cryptographic, portable (no node:crypto), over UTF-16 code units.
 */
export const FNV1A_OFFSET_BASIS = 0x811c9dc5;
export const FNV1A_PRIME = 0x01000193;

/**
 * One FNV-1a round: `code` (a UTF-16 code unit, or any 32-bit value) xored in, times the prime. The
 * result is a signed 32-bit integer as `Math.imul` gives it (`>>> 0` for the unsigned value). For callers
 * that hash code units which are not one run of a string (boundary marks, a word scanned in place).
 */
export function fnv1aStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, FNV1A_PRIME);
}

/** 32-bit FNV-1a of `text[start, end)` from `basis`, unsigned. */
export function fnv1a32(text: string, basis: number = FNV1A_OFFSET_BASIS, start = 0, end = text.length): number {
  let h = basis | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV1A_PRIME);
  return h >>> 0;
}

/** `fnv1a32` as 8 lower-case hex digits. */
export function fnv1a32Hex(text: string, basis: number = FNV1A_OFFSET_BASIS): string {
  return fnv1a32(text, basis).toString(16).padStart(8, '0');
}
