/**
 * Content the agent did not record. Instrumentations leave prompts, arguments and results out unless
 * content capture is on, or replace them with a marker: an absent attribute, `__REDACTED__`, or a blanked
 * `{}`. Such content is unknown, and two unknowns are not equal: mapped to a step, each unknown gets a
 * token of its own (derived from its event id), so the detectors' fingerprints (`argsHash` over the
 * canonical args, `resultHash` over the normalized outcome) never see two unknown calls as a repeat.
 */
import { FNV1A_OFFSET_BASIS, fnv1aStep, type JsonValue } from '@wayfinder/contracts';

export const REDACTED_MARKER = '__REDACTED__';
/** The key that carries an unknown's token in args and content, and lists unknown fields in attributes. */
export const UNKNOWN_KEY = 'wayfinder.unknown';

/** True when a value (raw attribute or parsed JSON) holds no recorded content. */
export function isUnrecorded(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') {
    const text = value.trim();
    return text === '' || text === '{}' || text === REDACTED_MARKER || text === `"${REDACTED_MARKER}"`;
  }
  if (typeof value === 'object') {
    if (!Array.isArray(value) && Object.keys(value).length === 0) return true;
    // Partly redacted ({"query": "__REDACTED__"}): the hidden part may differ between calls.
    return containsRedacted(value, 0);
  }
  return false;
}

function containsRedacted(value: unknown, depth: number): boolean {
  if (depth > 16) return false;
  if (typeof value === 'string') return value === REDACTED_MARKER;
  if (Array.isArray(value)) return value.some((item) => containsRedacted(item, depth + 1));
  if (value !== null && typeof value === 'object') return Object.values(value).some((item) => containsRedacted(item, depth + 1));
  return false;
}

/**
 * A token unique to one unknown: a letter and 16 hex digits. One word with letters and digits, so the
 * normalizer keeps it (its volatile patterns are dates, durations, pids, counters), the near-duplicate
 * detector reads it as a distinct target, and no two unknowns share a word to look alike.
 */
export function unknownToken(eventId: string, field: string): string {
  return `u${fnv1a64Hex(`${eventId}\u0000${field}`)}`;
}

export function unknownArgs(eventId: string): Record<string, JsonValue> {
  return { [UNKNOWN_KEY]: unknownToken(eventId, 'args') };
}

export function unknownContent(eventId: string): Record<string, JsonValue> {
  return { [UNKNOWN_KEY]: unknownToken(eventId, 'content') };
}

/**
 * 64 bits as two 32-bit lanes (no BigInt on the hot path): the first is plain FNV-1a, the second FNV-1a
 * rounds from another basis with the first lane's high half mixed into each code unit.
 */
export function fnv1a64Hex(text: string): string {
  let h1 = FNV1A_OFFSET_BASIS;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = fnv1aStep(h1, c) >>> 0;
    h2 = fnv1aStep(h2, c ^ (h1 >>> 16)) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}
