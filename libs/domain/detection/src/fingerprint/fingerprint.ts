/**
 * Call and outcome fingerprints (DESIGN §5.3): `argsHash` over the tool and key-sorted args,
 * `resultHash` over the normalized `{ok, content, error}`, the normalized error alone, and the
 * recognition of "unknown tool" outcomes.
 */
import { hash32 } from './hash';
import { canonicalJson, normalizeText, normalizeValue, type NormalizeOptions } from './normalize';

export interface OutcomeLike {
  ok?: unknown;
  content?: unknown;
  error?: unknown;
  errorCode?: unknown;
}

export function argsHash(tool: string, args: unknown): number {
  return hash32(canonicalJson(args ?? {}), hash32(String(tool)));
}

export function resultHash(outcome: OutcomeLike, options: NormalizeOptions = {}): number {
  const { content, error } = outcome;
  if ((content === undefined || typeof content === 'string') && (error === undefined || typeof error === 'string')) {
    // Fast path for text outcomes: the same fields, separated, without building JSON.
    const c = content === undefined ? '\u0002' : normalizeText(content, options.extraPatterns);
    const e = error === undefined ? '\u0002' : normalizeText(error, options.extraPatterns);
    return hash32(`${outcome.ok === true ? 1 : 0}\u0001${c}\u0001${e}`);
  }
  const normalized = {
    ok: outcome.ok === true,
    content: outcome.content === undefined ? null : normalizeValue(outcome.content, options),
    error: typeof outcome.error === 'string' ? normalizeText(outcome.error, options.extraPatterns) : (outcome.error ?? null),
  };
  return hash32(canonicalJson(normalized));
}

/** Hash of the normalized error text (0 when the outcome is no error). */
export function errorHash(outcome: OutcomeLike, options: NormalizeOptions = {}): number {
  if (!isErrorOutcome(outcome)) return 0;
  const text = typeof outcome.error === 'string' ? outcome.error : canonicalJson(outcome.error ?? outcome.content ?? null);
  return hash32(normalizeText(text, options.extraPatterns));
}

export function isErrorOutcome(outcome: OutcomeLike): boolean {
  return outcome.ok !== true;
}

const UNKNOWN_TOOL_PATTERNS = [/unknown tool/i, /tool\b.*\bnot found/i, /no such tool/i, /tool\b.*\bis not available/i];

export function isUnknownToolOutcome(outcome: OutcomeLike): boolean {
  if (outcome.errorCode === 'unknown_tool') return true;
  const error = typeof outcome.error === 'string' ? outcome.error.slice(0, 2048) : '';
  if (error.length === 0) return false;
  return UNKNOWN_TOOL_PATTERNS.some((p) => p.test(error));
}
