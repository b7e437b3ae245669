/**
 * The words of a JSON-like value for embedding: string and number leaves in order, keys left out (the
 * same keys in every call of a tool would make all calls look alike), bounded in size and depth.
 */
export function textOf(value: unknown, maxChars = 4096): string {
  const parts: string[] = [];
  let size = 0;
  let nodes = 0;
  const visit = (v: unknown, depth: number): void => {
    if (size >= maxChars || depth > 16 || ++nodes > 10_000) return;
    if (typeof v === 'string') {
      const piece = v.length > maxChars - size ? v.slice(0, maxChars - size) : v;
      parts.push(piece);
      size += piece.length + 1;
    } else if (typeof v === 'number' || typeof v === 'boolean') {
      parts.push(String(v));
      size += 6;
    } else if (Array.isArray(v)) {
      for (const item of v) visit(item, depth + 1);
    } else if (v !== null && typeof v === 'object') {
      for (const key of Object.keys(v)) visit((v as Record<string, unknown>)[key], depth + 1);
    }
  };
  visit(value, 0);
  return parts.join(' ');
}

const SPLIT = /[\s"'`,;()[\]{}<>|]+/;
const PATH_OR_URL = /[/\\]/;
const FILE_OR_DOMAIN = /^[\w-]+(\.[\w-]+)*\.[A-Za-z0-9]{1,8}$/;
const HAS_DIGIT = /\d/;
const HAS_LETTER = /[A-Za-z]/;
const LONG_NUMBER = /^\d{3,}$/;

/**
 * A 64-bit mask (two int32 words) of the target-like tokens of a call's args: paths, URLs, file names,
 * ids such as `cust-1037`, numbers of 3+ digits. Two calls whose masks are both non-empty and disjoint
 * act on different targets: a batch, not a rephrasing.
 */
export function targetMask(text: string): [number, number] {
  let lo = 0;
  let hi = 0;
  if (text.length === 0) return [0, 0];
  for (const token of text.slice(0, 2048).split(SPLIT)) {
    if (token.length < 3) continue;
    const isTarget =
      PATH_OR_URL.test(token) || FILE_OR_DOMAIN.test(token) || LONG_NUMBER.test(token) || (HAS_DIGIT.test(token) && HAS_LETTER.test(token));
    if (!isTarget) continue;
    const parts = [token];
    // An id inside a URL or path (a video id, a ticket number) names the same target in other spellings.
    if (PATH_OR_URL.test(token) || token.includes('=')) {
      for (const part of token.split(/[/\\.:?=&#_-]+/)) if (part.length >= 5 && HAS_DIGIT.test(part) && HAS_LETTER.test(part)) parts.push(part);
    }
    for (const part of parts) {
      let h = 0x811c9dc5;
      for (let i = 0; i < part.length; i++) h = Math.imul(h ^ part.charCodeAt(i), 0x01000193);
      const bit = (h ^ (h >>> 15)) & 63;
      if (bit < 32) lo |= 1 << bit;
      else hi |= 1 << (bit - 32);
    }
  }
  return [lo, hi];
}
