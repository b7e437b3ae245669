/**
 * Size limits that are part of the v1 contracts (DESIGN §4). Ids longer than MAX_ID_LENGTH and args
 * larger than MAX_ARGS_BYTES are rejected (DLQ); texts longer than MAX_TEXT_BYTES are truncated with a
 * marker by `truncateText` before validation, so a long observation is kept, not lost.
 */
export const MAX_ID_LENGTH = 128;
export const MAX_TEXT_BYTES = 64 * 1024;
export const MAX_ARGS_BYTES = 64 * 1024;
export const MAX_ATTRIBUTES_BYTES = 4 * 1024;
export const TRUNCATION_MARKER = '[truncated]';

/** Cuts a string to at most `maxBytes` UTF-8 bytes, appending the truncation marker when it cut. */
export function truncateText(text: string, maxBytes = MAX_TEXT_BYTES): string {
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return text;
  const budget = maxBytes - Buffer.byteLength(TRUNCATION_MARKER, 'utf8');
  let cut = Buffer.from(text, 'utf8').subarray(0, budget).toString('utf8');
  // A multi-byte character split at the boundary decodes to U+FFFD: drop it.
  if (cut.endsWith('\uFFFD')) cut = cut.slice(0, -1);
  return cut + TRUNCATION_MARKER;
}

/** Byte size of a value's JSON serialization, or Infinity when it cannot be serialized. */
export function jsonByteSize(value: unknown): number {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? 0 : Buffer.byteLength(json, 'utf8');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
