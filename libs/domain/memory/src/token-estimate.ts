/**
 * A cheap token estimate for context budgets: about four characters per token for alphabetic scripts and
 * one token per CJK character. Good enough to decide when to prune; never used for billing.
 */
const CJK = /[\u3040-\u30ff\u3100-\u312f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/;

export function estimateTokens(text: string): number {
  let cjk = 0;
  let other = 0;
  for (const ch of text) {
    if (CJK.test(ch)) cjk += 1;
    else other += 1;
  }
  return cjk + Math.ceil(other / 4);
}

/** Cuts text to about `maxTokens`, marking the cut. */
export function truncateToTokens(text: string, maxTokens: number): string {
  if (estimateTokens(text) <= maxTokens) return text;
  const marker = ' …[pruned]';
  const budget = Math.max(0, maxTokens - estimateTokens(marker));
  let used = 0;
  let other = 0;
  let out = '';
  for (const ch of text) {
    if (CJK.test(ch)) used += 1;
    else {
      other += 1;
      if (other % 4 === 1) used += 1;
    }
    if (used > budget) break;
    out += ch;
  }
  return out + marker;
}
