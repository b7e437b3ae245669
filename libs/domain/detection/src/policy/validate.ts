/** Validation of a policy overlay from outside (API, file, topic), with errors naming the field. */
import { compileSafePattern } from '@wayfinder/cognitive-map';
import { PolicyOverlay, type PolicySettings } from '@wayfinder/contracts';
import { resolvePolicy } from './resolve';

export type PolicyValidation = { ok: true; policy: PolicySettings; overlay: PolicyOverlay } | { ok: false; error: string };

export function validatePolicy(raw: unknown): PolicyValidation {
  const parsed = PolicyOverlay.safeParse(raw);
  if (!parsed.success) {
    const error = parsed.error.issues
      .map((issue) => {
        const path = issue.path.join('.');
        const keys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.map((k) => (path ? `${path}.${k}` : k)).join(', ')})` : '';
        return `${path || 'policy'}: ${issue.message}${keys}`;
      })
      .join('; ');
    return { ok: false, error };
  }
  const policy = resolvePolicy(parsed.data);
  const problems: string[] = [];
  if (policy.loop.critical < policy.loop.warning) problems.push('loop.critical: must be at least loop.warning');
  if (policy.loop.errorRepeatCritical < policy.loop.errorRepeatWarning) problems.push('loop.errorRepeatCritical: must be at least loop.errorRepeatWarning');
  if (policy.nearDuplicate.critical < policy.nearDuplicate.warning) problems.push('nearDuplicate.critical: must be at least nearDuplicate.warning');
  // The early stage counts the new call as a repeat of a chain that already has one: 1 could never fire.
  if (policy.nearDuplicate.identicalWarning !== undefined && policy.nearDuplicate.identicalWarning < 2) problems.push('nearDuplicate.identicalWarning: must be at least 2 (2 = the third identical call)');
  if (policy.monologue.critical < policy.monologue.warning) problems.push('monologue.critical: must be at least monologue.warning');
  if (policy.stagnation.criticalSteps < policy.stagnation.warningSteps) problems.push('stagnation.criticalSteps: must be at least stagnation.warningSteps');
  if (policy.crossAgent.critical < policy.crossAgent.warning) problems.push('crossAgent.critical: must be at least crossAgent.warning');
  for (const [tool, patterns] of Object.entries(policy.normalization.volatilePatterns)) {
    patterns.forEach((pattern, i) => {
      // Compiled with RE2 semantics (linear time): a pattern that needs backtracking is rejected here.
      const compiled = compileSafePattern(pattern);
      if (!compiled.ok) problems.push(`normalization.volatilePatterns.${tool}.${i}: ${compiled.error}`);
    });
  }
  (policy.nearDuplicate.retryableErrors ?? []).forEach((pattern, i) => {
    // RE2 semantics, like every tenant pattern: a backtracking pattern could hold the shared event loop.
    const compiled = compileSafePattern(pattern, 'i');
    if (!compiled.ok) problems.push(`nearDuplicate.retryableErrors.${i}: ${compiled.error}`);
  });
  (policy.loop.emptyResultPatterns ?? []).forEach((pattern, i) => {
    const compiled = compileSafePattern(pattern, 'i');
    if (!compiled.ok) problems.push(`loop.emptyResultPatterns.${i}: ${compiled.error}`);
  });
  if (policy.loop.fruitlessStreakWarning !== undefined && policy.loop.fruitlessStreakCritical !== undefined && policy.loop.fruitlessStreakCritical < policy.loop.fruitlessStreakWarning) {
    problems.push('loop.fruitlessStreakCritical: must be at least loop.fruitlessStreakWarning');
  }
  if (problems.length > 0) return { ok: false, error: problems.join('; ') };
  return { ok: true, policy, overlay: parsed.data };
}
