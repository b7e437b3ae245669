/**
 * Normalization of outcomes before hashing (conformance README, "Fingerprints"): volatile text parts
 * (date-times, clock times, durations, pids, attempt/retry counters) become placeholders and volatile keys
 * are dropped from structured content, so identical outcomes compare equal. Canonical JSON sorts keys.
 */

/** Keys dropped at any depth, compared lower-cased. */
export const VOLATILE_KEYS: readonly string[] = [
  'timestamp', 'ts', 'time', 'date', 'createdAt', 'updatedAt', 'sentAt', 'deliveredAt', 'startedAt', 'finishedAt',
  'durationMs', 'elapsedMs', 'tookMs', 'latencyMs', 'pid', 'requestId', 'traceId', 'spanId', 'messageId', 'nonce',
];

// One alternation, one pass: date-times, clock times, durations, pid N, attempt N, retry N.
const VOLATILE = new RegExp(
  [
    /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/.source,
    /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/.source,
    /\b\d+(?:\.\d+)?\s?(?:ms|msec|milliseconds?|s|sec|secs|seconds?|m|min|mins|minutes?|h|hrs?|hours?)\b/.source,
    /\bpid[=:\s]\s*\d+/.source,
    /\battempt[=:\s#]\s*\d+/.source,
    /\bretry[=:\s#]\s*\d+/.source,
  ].join('|'),
  'gi',
);
const HAS_DIGIT = /\d/;

const PLACEHOLDER = '<v>';

/** Replaces the volatile parts of a text with a placeholder; idempotent. */
export function normalizeText(text: string, extraPatterns?: readonly TextPattern[]): string {
  if (typeof text !== 'string' || text.length === 0) return '';
  // Every built-in volatile part contains a digit; most texts without one need no work.
  let out = HAS_DIGIT.test(text) ? text.replace(VOLATILE, PLACEHOLDER) : text;
  if (extraPatterns) for (const pattern of extraPatterns) out = pattern.replaceAll(out, PLACEHOLDER);
  return out;
}

export interface NormalizeOptions {
  /** Lower-cased extra keys to drop. */
  extraKeys?: ReadonlySet<string>;
  extraPatterns?: readonly TextPattern[];
}

/** A tenant's volatile pattern, compiled with RE2 semantics (compileSafePattern of @wayfinder/cognitive-map). */
export interface TextPattern {
  replaceAll(text: string, replacement: string): string;
}

const DEFAULT_KEYS = new Set(VOLATILE_KEYS.map((k) => k.toLowerCase()));
const MAX_DEPTH = 64;

/** Normalizes any JSON-like value: volatile keys dropped, strings normalized, cycles and depth cut. */
export function normalizeValue(value: unknown, options: NormalizeOptions = {}, depth = 0, seen?: Set<object>, budget = { nodes: 0 }): unknown {
  if (++budget.nodes > MAX_NODES) return '<cut>';
  if (typeof value === 'string') return normalizeText(value, options.extraPatterns);
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' || typeof value === 'boolean') return value;
    return value === undefined ? null : String(value);
  }
  if (depth >= MAX_DEPTH) return '<deep>';
  const visited = seen ?? new Set<object>();
  if (visited.has(value)) return '<cycle>';
  visited.add(value);
  let out: unknown;
  if (Array.isArray(value)) {
    out = value.map((item) => normalizeValue(item, options, depth + 1, visited, budget));
  } else {
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const lower = key.toLowerCase();
      if (DEFAULT_KEYS.has(lower) || options.extraKeys?.has(lower)) continue;
      result[key] = normalizeValue((value as Record<string, unknown>)[key], options, depth + 1, visited, budget);
    }
    out = result;
  }
  visited.delete(value);
  return out;
}

/** JSON with object keys sorted at every depth; total over odd inputs (cycles, bigint, functions). */
export function canonicalJson(value: unknown): string {
  return canonical(value, 0, null, { nodes: 0 });
}

/** Nodes visited before the rest is cut: JSON input is a tree bounded by its size, a shared-reference graph is not. */
const MAX_NODES = 100_000;

function canonical(value: unknown, depth: number, seen: Set<object> | null, budget: { nodes: number }): string {
  if (++budget.nodes > MAX_NODES) return '"<cut>"';
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return JSON.stringify(String(value));
  }
  if (depth >= MAX_DEPTH) return '"<deep>"';
  const visited = seen ?? new Set<object>();
  if (visited.has(value as object)) return '"<cycle>"';
  visited.add(value as object);
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + canonical(value[i], depth + 1, visited, budget);
    out += ']';
  } else {
    const keys = Object.keys(value as object);
    if (keys.length > 1) keys.sort();
    out = '{';
    for (let i = 0; i < keys.length; i++) {
      out += `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:${canonical((value as Record<string, unknown>)[keys[i]], depth + 1, visited, budget)}`;
    }
    out += '}';
  }
  visited.delete(value as object);
  return out;
}
