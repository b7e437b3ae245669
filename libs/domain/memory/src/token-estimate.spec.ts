// Token estimates: about four characters per token, one per CJK character; truncation respects the estimate.
import fc from 'fast-check';
import { estimateTokens, truncateToTokens } from './token-estimate';

describe('token estimate', () => {
  it('counts Latin text at chars/4 and CJK characters at one each', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcdefgh')).toBe(2);
    expect(estimateTokens('abcdefghi')).toBe(3);
    expect(estimateTokens('调研五个竞争对手')).toBe(8);
    expect(estimateTokens('report 报告')).toBe(2 + 2);
  });

  it('never shrinks when text is appended', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(estimateTokens(a + b)).toBeGreaterThanOrEqual(estimateTokens(a));
      }),
    );
  });

  it('truncation stays within the budget and leaves short text alone', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.integer({ min: 5, max: 60 }), (text, max) => {
        const cut = truncateToTokens(text, max);
        expect(estimateTokens(cut)).toBeLessThanOrEqual(max);
        if (estimateTokens(text) <= max) expect(cut).toBe(text);
      }),
    );
  });
});
