/** Tool-name globs of the policy (`*` matches any run of characters, matching is case-sensitive). */
export type GlobMatcher = (name: string) => boolean;

const cache = new WeakMap<readonly string[], GlobMatcher>();

export function compileGlobs(globs: readonly string[]): GlobMatcher {
  const cached = cache.get(globs);
  if (cached) return cached;
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const glob of globs) {
    if (!glob.includes('*')) exact.add(glob);
    else patterns.push(new RegExp(`^${glob.split('*').map(escapeRegExp).join('.*')}$`));
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
      answer = exact.has(name) || patterns.some((p) => p.test(name));
      if (answers.size < 4096) answers.set(name, answer);
    }
    return answer;
  };
  cache.set(globs, matcher);
  return matcher;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
