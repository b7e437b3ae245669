/**
 * Tool-name globs of the policy (`*` matches any run of characters, matching is case-sensitive). A glob is
 * a tenant's pattern: it is matched segment by segment (the first a prefix, the last a suffix, each one
 * between at its leftmost place after the one before), never by a backtracking regex, so no glob can hold
 * the event loop (issue #29: `*a*a*…*b` as a RegExp against a tool name of 128 `a`s never returned).
 */
export type GlobMatcher = (name: string) => boolean;

const cache = new WeakMap<readonly string[], GlobMatcher>();

export function compileGlobs(globs: readonly string[]): GlobMatcher {
  const cached = cache.get(globs);
  if (cached) return cached;
  const exact = new Set<string>();
  const patterns: string[][] = [];
  for (const glob of globs) {
    if (!glob.includes('*')) exact.add(glob);
    else patterns.push(glob.split('*'));
  }
  if (patterns.length === 0) {
    const matchExact: GlobMatcher = (name) => exact.has(name);
    cache.set(globs, matchExact);
    return matchExact;
  }
  // Tool names repeat endlessly; remember each answer (bounded) instead of re-running the patterns.
  const answers = new Map<string, boolean>();
  const matcher: GlobMatcher = (name) => {
    let answer = answers.get(name);
    if (answer === undefined) {
      answer = exact.has(name) || patterns.some((segments) => matchesSegments(name, segments));
      if (answers.size < 4096) answers.set(name, answer);
    }
    return answer;
  };
  cache.set(globs, matcher);
  return matcher;
}

/**
 * Whether `name` matches the glob whose `*`-separated segments these are (at least two). Taking each
 * middle segment at its leftmost place is never wrong with `*` as the only wildcard (a later place leaves
 * less room for what follows), so one pass decides: O(name × glob) at worst, no backtracking.
 */
export function matchesSegments(name: string, segments: readonly string[]): boolean {
  const first = segments[0];
  const last = segments[segments.length - 1];
  if (name.length < first.length + last.length || !name.startsWith(first) || !name.endsWith(last)) return false;
  let at = first.length;
  const end = name.length - last.length;
  for (let i = 1; i < segments.length - 1; i++) {
    const segment = segments[i];
    if (segment === '') continue;
    const found = name.indexOf(segment, at);
    if (found < 0 || found + segment.length > end) return false;
    at = found + segment.length;
  }
  return true;
}
