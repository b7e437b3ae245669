/**
 * Bounded, redacted previews for deviation evidence (DESIGN §5.3 "Evidence that names things"): what a
 * hint needs to name the repeated arguments, error or passage, never a secret. Secret-looking values
 * (API keys, tokens, JWTs, passwords in key=value or JSON, e-mail addresses, long hex or base64 runs) are
 * replaced with `[redacted]` before the text is cut to its bound.
 */
import { canonicalJson } from '../fingerprint/normalize';

/** Characters of a preview, the ellipsis included. */
export const PREVIEW_CHARS = 160;
const REDACTED = '[redacted]';
/** Characters looked at before redaction: previews are short, a 64 KiB output need not be scanned whole. */
const SCAN_CHARS = 2048;

const SECRET_PATTERNS: readonly RegExp[] = [
  // key = value, key: value, "key": "value" where the key names a secret.
  /((?:api[_-]?key|apikey|access[_-]?key|secret|token|password|passwd|pwd|authorization|auth|credential|private[_-]?key|session)[\w-]*["']?\s*[:=]\s*["']?)(?:bearer\s+|basic\s+)?[^\s"',;}&]{3,}/gi,
  /\bbearer\s+[\w.~+/-]{8,}=*/gi,
  /\b(?:sk|pk|rk)[-_](?:live[-_]|test[-_]|proj[-_])?[A-Za-z0-9]{12,}\b/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{30,}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g,
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g,
  /\b[a-f0-9]{32,}\b/gi,
  /\b[A-Za-z0-9+/]{40,}={0,2}/g,
];

/** The text with secret-looking values replaced. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS) {
    out = out.replace(pattern, (match: string, keyPart?: unknown) => (typeof keyPart === 'string' ? `${keyPart}${REDACTED}` : REDACTED));
  }
  return out;
}

/** A one-line, redacted preview of any value (text as is, anything else as canonical JSON), at most `max` characters. */
export function preview(value: unknown, max = PREVIEW_CHARS): string {
  const raw = typeof value === 'string' ? value : canonicalJson(value ?? null);
  const flat = raw.slice(0, SCAN_CHARS).replace(/\s+/g, ' ').trim();
  const safe = redactSecrets(flat);
  return safe.length > max ? `${safe.slice(0, Math.max(0, max - 1))}…` : safe;
}
