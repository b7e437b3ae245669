/**
 * A resolved policy prepared for the hot path: globs compiled to matchers and per-tool normalization
 * options built once per policy object (cached by identity), not once per event.
 */
import { compileSafePattern, type SafePattern } from '@wayfinder/cognitive-map';
import type { PolicySettings } from '@wayfinder/contracts';
import type { NormalizeOptions } from '../fingerprint/normalize';
import { compileGlobs, type GlobMatcher } from '../glob';

export interface CompiledPolicy {
  readonly settings: PolicySettings;
  readonly isExempt: GlobMatcher;
  readonly isPollName: GlobMatcher;
  readonly isDangerous: GlobMatcher;
  readonly isNearDuplicateIgnored: GlobMatcher;
  /** Tools that hand in the run's answer (finalAnswerTools, PROJECT-RULES.md P12). */
  readonly isFinalAnswer: GlobMatcher;
  /** Whether an error text is worth retrying (nearDuplicate.retryableErrors). */
  isRetryableError(error: string): boolean;
  /** Whether a successful result found nothing (loop.emptyResultPatterns, PROJECT-RULES.md P7). */
  isEmptyResult(content: string): boolean;
  normalizationFor(tool: string): NormalizeOptions;
}

const compiled = new WeakMap<PolicySettings, CompiledPolicy>();
const NO_OPTIONS: NormalizeOptions = {};

export function compilePolicy(settings: PolicySettings): CompiledPolicy {
  const cached = compiled.get(settings);
  if (cached) return cached;
  const perTool = new Map<string, NormalizeOptions>();
  const { volatileKeys, volatilePatterns } = settings.normalization;
  const hasExtras = Object.keys(volatileKeys).length > 0 || Object.keys(volatilePatterns).length > 0;
  const policy: CompiledPolicy = {
    settings,
    isExempt: compileGlobs(settings.exemptTools),
    isPollName: compileGlobs(settings.loop.pollTools),
    isDangerous: compileGlobs(settings.constraints.dangerousTools),
    isNearDuplicateIgnored: compileGlobs(settings.nearDuplicate.ignoreTools),
    isFinalAnswer: compileGlobs(settings.finalAnswerTools ?? []),
    isRetryableError: retryableMatcher(settings.nearDuplicate.retryableErrors ?? []),
    isEmptyResult: emptyResultMatcher(settings.loop.emptyResultPatterns ?? []),
    normalizationFor(tool) {
      if (!hasExtras) return NO_OPTIONS;
      let options = perTool.get(tool);
      if (!options) {
        const keys = [...(volatileKeys['*'] ?? []), ...(volatileKeys[tool] ?? [])].map((k) => k.toLowerCase());
        const patterns: SafePattern[] = [];
        for (const source of [...(volatilePatterns['*'] ?? []), ...(volatilePatterns[tool] ?? [])]) {
          // RE2 semantics: linear time whatever the tenant wrote. validatePolicy rejects what RE2 cannot
          // compile; one that slipped through is ignored rather than fatal.
          const compiled = compileSafePattern(source);
          if (compiled.ok) patterns.push(compiled.pattern);
        }
        options = { extraKeys: new Set(keys), extraPatterns: patterns };
        if (perTool.size < 1024) perTool.set(tool, options);
      }
      return options;
    },
  };
  compiled.set(settings, policy);
  return policy;
}

/**
 * Tenant patterns compiled with RE2 semantics (linear time: `^(a+)+$` cannot stall the event loop).
 * validatePolicy rejects what RE2 cannot compile; one that slipped through is ignored rather than fatal.
 */
function retryableMatcher(sources: readonly string[]): (error: string) => boolean {
  const patterns: SafePattern[] = [];
  for (const source of sources) {
    const compiled = compileSafePattern(source, 'i');
    if (compiled.ok) patterns.push(compiled.pattern);
  }
  if (patterns.length === 0) return () => false;
  return (error) => {
    const head = error.slice(0, 1024);
    return patterns.some((p) => p.test(head));
  };
}

/** Lines of a result read for emptiness, and characters: what a result found shows early. */
const EMPTY_MAX_LINES = 40;
const EMPTY_MAX_CHARS = 4000;

/**
 * A result found nothing when, among its non-blank lines (headers such as "Execution logs:" aside), at
 * least one and at least half match an empty-result pattern (RE2: linear time whatever a tenant wrote).
 */
function emptyResultMatcher(sources: readonly string[]): (content: string) => boolean {
  const patterns: SafePattern[] = [];
  for (const source of sources) {
    const compiled = compileSafePattern(source, 'i');
    if (compiled.ok) patterns.push(compiled.pattern);
  }
  if (patterns.length === 0) return () => false;
  return (content) => {
    let empty = 0;
    let lines = 0;
    let start = 0;
    const text = content.length > EMPTY_MAX_CHARS ? content.slice(0, EMPTY_MAX_CHARS) : content;
    while (start <= text.length && lines < EMPTY_MAX_LINES) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const line = text.slice(start, end).trim();
      start = end + 1;
      if (line.length === 0) continue;
      const matches = patterns.some((p) => p.test(line));
      // A short heading ("Execution logs:", "Results:") says nothing either way.
      if (!matches && line.length < 80 && line.endsWith(':')) continue;
      lines++;
      if (matches) empty++;
    }
    return empty > 0 && empty * 2 >= lines;
  };
}
