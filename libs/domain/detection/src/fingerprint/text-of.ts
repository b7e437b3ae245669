import { hash32 } from './hash';

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

/** Keys whose value names a page of a listing: a new value is a new page, another target. */
const PAGINATION_KEY = /^(page|page_?(no|num|number|token|index)|offset|cursor|next(_?(page|token|cursor))?|start(_?(index|at|after))?|after|before|skip|from|continuation(_?token)?)$/i;

/**
 * The pagination values of a call's args (`page`, `offset`, `cursor`, `pageToken`, …, top level), as one
 * text, or '' when there are none. Two calls whose pagination values differ read different pages.
 */
export function paginationOf(args: unknown): string {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return '';
  let out = '';
  for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
    if (!PAGINATION_KEY.test(key) || value === null || value === undefined || typeof value === 'object') continue;
    out += `${key}=${String(value)}\u0000`;
  }
  return out;
}

/**
 * The targets of a call's args as a bottom-2 signature: the two smallest 32-bit hashes (hash32) of its
 * target-like tokens (paths, URLs, file names, ids such as `cust-1037`, numbers of 3+ digits), 0 when
 * absent. Two calls whose signatures are both non-empty and share no hash act on different targets: a
 * batch, not a rephrasing. With at most two targets per call the comparison is exact (two distinct targets
 * look alike once in 2^32, where the former 64-bit mask of 6-bit hashes made it once in 64); with more,
 * calls sharing a target whose hash is not among the two smallest of both read as distinct, which errs
 * toward "not a loop". Pagination values, when the args have any, are the only targets (a new page is new).
 */
export function targetSignature(text: string, pagination = ''): [number, number] {
  let first = 0;
  let second = 0;
  const add = (hash: number): void => {
    const h = hash >>> 0;
    if (h === first || h === second) return;
    if (first === 0 || h < first) {
      second = first;
      first = h;
    } else if (second === 0 || h < second) second = h;
  };
  if (pagination.length > 0) {
    add(hash32(pagination));
    return [first | 0, second | 0];
  }
  if (text.length === 0) return [0, 0];
  for (const token of text.slice(0, 2048).split(SPLIT)) {
    if (token.length < 3) continue;
    const isTarget =
      PATH_OR_URL.test(token) || FILE_OR_DOMAIN.test(token) || LONG_NUMBER.test(token) || (HAS_DIGIT.test(token) && HAS_LETTER.test(token));
    if (!isTarget) continue;
    add(hash32(token));
    // An id inside a URL or path (a video id, a ticket number) names the same target in other spellings.
    if (PATH_OR_URL.test(token) || token.includes('=')) {
      for (const part of token.split(/[/\\.:?=&#_-]+/)) if (part.length >= 5 && HAS_DIGIT.test(part) && HAS_LETTER.test(part)) add(hash32(part));
    }
  }
  return [first | 0, second | 0];
}

/** Whether two target signatures name disjoint, non-empty target sets. */
export function distinctTargets(a: [number, number] | readonly number[], b: [number, number] | readonly number[]): boolean {
  if ((a[0] | a[1]) === 0 || (b[0] | b[1]) === 0) return false;
  for (const x of [a[0], a[1]]) if (x !== 0 && (x === b[0] || x === b[1])) return false;
  return true;
}
