/**
 * Stable ids for parsed milestones and anchors: deterministic from the text, so re-parsing the same goal
 * yields the same map (consumers key checkpoints and memories on milestone ids).
 */
import { fnv1a32, MAX_ID_LENGTH } from '@wayfinder/contracts';

/** FNV-1a (32 bit) as 6 base-36 characters: short, stable across runs and platforms, no crypto needed. */
export function shortHash(text: string): string {
  return fnv1a32(text).toString(36).padStart(7, '0').slice(-6);
}

const SLUG_WORDS = 5;
const SLUG_CHARS = 40;

/**
 * A lower-case ASCII slug of the first words of `text`, or '' when the text has no ASCII words
 * (e.g. Chinese): callers then fall back to a hash.
 */
export function slugify(text: string): string {
  const words = text
    .normalize('NFKD')
    .toLowerCase()
    .match(/[a-z0-9]+/g);
  if (!words) return '';
  let slug = '';
  for (const word of words.slice(0, SLUG_WORDS)) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > SLUG_CHARS) break;
    slug = next;
  }
  return slug || words[0].slice(0, SLUG_CHARS);
}

/** Whether a text is mostly CJK: such texts get a hash id rather than a slug of stray ASCII words. */
export function isMostlyCjk(text: string): boolean {
  const cjk = text.match(/[\u3400-\u9fff\uf900-\ufaff]/g)?.length ?? 0;
  const latin = text.match(/[A-Za-z]/g)?.length ?? 0;
  return cjk > latin;
}

/** `<prefix><k>-<slug>` for Latin text, `<prefix><k>-<hash>` otherwise; always a valid contracts Id. */
export function stableId(prefix: string, index: number, text: string): string {
  const slug = isMostlyCjk(text) ? '' : slugify(text);
  const tail = slug || shortHash(text.trim());
  return `${prefix}${index}-${tail}`.slice(0, MAX_ID_LENGTH);
}

/**
 * Strips the given characters (and whitespace) from both ends. A loop, not a `[…]+$` regex: that regex
 * is quadratic on a long run of those characters in the middle of a text.
 */
export function trimChars(text: string, chars: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (chars.includes(text[start]) || /\s/.test(text[start]))) start++;
  while (end > start && (chars.includes(text[end - 1]) || /\s/.test(text[end - 1]))) end--;
  return text.slice(start, end);
}

/** Like `trimChars`, at the end only. */
export function trimEnd(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && (chars.includes(text[end - 1]) || /\s/.test(text[end - 1]))) end--;
  return text.slice(0, end);
}
