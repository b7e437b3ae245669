/**
 * The terms rule of trajectory consistency (DESIGN §9): a step serves an anchor or milestone when its
 * argument or result terms share enough content words with the anchor's or milestone's text. Cheap,
 * explainable and deterministic; what it cannot decide goes to the embedder.
 */

const STOP = new Set([
  'the', 'and', 'for', 'with', 'from', 'that', 'this', 'these', 'those', 'into', 'onto', 'then', 'than', 'them',
  'their', 'there', 'each', 'every', 'all', 'any', 'are', 'was', 'were', 'been', 'being', 'have', 'has', 'had',
  'not', 'but', 'you', 'your', 'our', 'its', 'out', 'about', 'over', 'under', 'least', 'most', 'more', 'less',
  'fewer', 'exactly', 'only', 'what', 'which', 'who', 'how', 'why', 'when', 'where', 'will', 'would', 'should',
  'could', 'can', 'may', 'must', 'let', 'use', 'using', 'used', 'make', 'get', 'got', 'one', 'two', 'three',
  'true', 'false', 'null', 'none', 'http', 'https', 'www', 'com', 'org', 'net', 'example',
]);

/** Lower-cased content words of at least 3 letters, crudely stemmed; CJK runs as 2-character shingles. */
export function contentTerms(text: string, max = 4_000): Set<string> {
  const out = new Set<string>();
  const lower = text.slice(0, max).toLowerCase();
  for (const m of lower.matchAll(/[a-z][a-z0-9]{2,}|[\u3400-\u9fff]+/g)) {
    const word = m[0];
    if (/^[\u3400-\u9fff]/.test(word)) {
      for (let i = 0; i + 1 < word.length; i++) out.add(word.slice(i, i + 2));
      continue;
    }
    if (STOP.has(word)) continue;
    out.add(stem(word));
  }
  return out;
}

function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('es') && /(?:ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** How many terms of `step` appear in `target`. */
export function sharedTerms(step: ReadonlySet<string>, target: ReadonlySet<string>): number {
  let n = 0;
  for (const t of step) if (target.has(t)) n++;
  return n;
}
