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
  /** Whether an error text is worth retrying (nearDuplicate.retryableErrors). */
  isRetryableError(error: string): boolean;
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
    isRetryableError: retryableMatcher(settings.nearDuplicate.retryableErrors ?? []),
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

function retryableMatcher(sources: readonly string[]): (error: string) => boolean {
  const patterns: RegExp[] = [];
  for (const source of sources) {
    try {
      patterns.push(new RegExp(source, 'i'));
    } catch {
      // validatePolicy rejects bad patterns; one that slipped through is ignored rather than fatal.
    }
  }
  if (patterns.length === 0) return () => false;
  return (error) => {
    const head = error.slice(0, 1024);
    return patterns.some((p) => p.test(head));
  };
}
