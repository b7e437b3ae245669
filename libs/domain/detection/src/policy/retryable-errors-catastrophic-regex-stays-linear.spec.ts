/**
 * Issue #29: a tenant's `nearDuplicate.retryableErrors` was compiled with JavaScript's backtracking RegExp,
 * so `^(a+)+$` against a failed call's error of `a`s and a `!` held the shared event loop (26 `a`s: 9 s,
 * 40 `a`s: never). The patterns are compiled with RE2 semantics now; what RE2 cannot express is refused
 * when the policy is validated, naming the field.
 */
import { compilePolicy } from './compiled-policy';
import { validatePolicy } from './validate';

describe('nearDuplicate.retryableErrors: a catastrophic pattern stays linear', () => {
  it('evaluates the evil pattern against a 40-`a` error and returns an answer', () => {
    const validation = validatePolicy({ nearDuplicate: { retryableErrors: ['^(a+)+$', 'try again'] } });
    expect(validation.ok).toBe(true);
    if (!validation.ok) return;
    const policy = compilePolicy(validation.policy);
    expect(policy.isRetryableError(`${'a'.repeat(40)}!`)).toBe(false);
    expect(policy.isRetryableError('a'.repeat(40))).toBe(true);
    expect(policy.isRetryableError('Please TRY AGAIN later')).toBe(true);
  });

  it('refuses a pattern with a backreference, naming the field', () => {
    const result = validatePolicy({ nearDuplicate: { retryableErrors: ['ok', '(a+)\\1'] } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain('nearDuplicate.retryableErrors.1');
  });

  it('refuses lookaround, which RE2 cannot express either', () => {
    const result = validatePolicy({ nearDuplicate: { retryableErrors: ['timeout(?!s)'] } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain('nearDuplicate.retryableErrors.0');
  });

  it('still accepts the default patterns of every profile', () => {
    for (const profile of ['strict', 'balanced', 'lenient']) {
      const result = validatePolicy({ profile });
      expect(result.ok).toBe(true);
    }
  });
});
