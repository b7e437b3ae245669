/**
 * Regular expressions written by tenants (milestone validators, policy normalization patterns) run on
 * shared workers, so they are compiled with RE2 semantics (re2js: linear time in the input, whatever the
 * pattern) instead of the backtracking engine: `(a+)+$` cannot stall a worker. What RE2 cannot express
 * (backreferences, lookaround) is rejected at validation with the reason. Each evaluation also reads at
 * most MAX_PATTERN_INPUT characters (the budget per evaluation).
 */
import { RE2JS } from 're2js';

/** Characters of a text one evaluation reads (texts are capped at 64 KB by the contracts anyway). */
export const MAX_PATTERN_INPUT = 64 * 1024;

export interface SafePattern {
  test(text: string): boolean;
  /** Every match replaced by `replacement` (taken literally). */
  replaceAll(text: string, replacement: string): string;
}

export type CompiledPattern = { ok: true; pattern: SafePattern } | { ok: false; error: string };

/** Compiles with RE2 semantics; flags of the contracts: i, m, s (u is implied: RE2 reads code points). */
export function compileSafePattern(source: string, flags = ''): CompiledPattern {
  let bits = 0;
  if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) bits |= RE2JS.MULTILINE;
  if (flags.includes('s')) bits |= RE2JS.DOTALL;
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, bits);
  } catch (error) {
    return { ok: false, error: `not a safe regular expression (RE2 syntax: no backreferences or lookaround): ${(error as Error).message}` };
  }
  return {
    ok: true,
    pattern: {
      test: (text) => re.test(cap(text)),
      replaceAll: (text, replacement) => {
        const input = cap(text);
        const matcher = re.matcher(input);
        let out = '';
        let last = 0;
        while (matcher.find()) {
          out += input.slice(last, matcher.start()) + replacement;
          last = matcher.end();
        }
        return last === 0 && out === '' ? text : out + text.slice(last);
      },
    },
  };
}

function cap(text: string): string {
  return text.length > MAX_PATTERN_INPUT ? text.slice(0, MAX_PATTERN_INPUT) : text;
}
