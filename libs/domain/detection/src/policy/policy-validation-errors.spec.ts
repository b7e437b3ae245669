/** validatePolicy: a bad overlay is rejected with a message naming the field. */
import { validatePolicy } from './validate';

describe('validatePolicy', () => {
  it('accepts a partial overlay and returns the resolved policy', () => {
    const result = validatePolicy({ profile: 'lenient', loop: { warning: 12 } });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.policy.profile).toBe('lenient');
      expect(result.policy.loop.warning).toBe(12);
    }
  });

  it.each([
    [{ loop: { warning: -1 } }, 'loop.warning'],
    [{ loop: { warnng: 3 } }, 'loop.warnng'],
    [{ nearDuplicate: { argsSimilarity: 1.5 } }, 'nearDuplicate.argsSimilarity'],
    [{ profile: 'paranoid' }, 'profile'],
    [{ loop: { warning: 30, critical: 20 } }, 'loop.critical'],
    [{ normalization: { volatilePatterns: { read: ['(unclosed'] } } }, 'normalization.volatilePatterns.read.0'],
    [{ surprise: true }, 'surprise'],
  ])('rejects %j naming %s', (raw, field) => {
    const result = validatePolicy(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(field);
  });
});
