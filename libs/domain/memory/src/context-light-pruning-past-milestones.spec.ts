// Light pruning at each milestone: a finished milestone's raw log collapses to its conclusions; raw output is cut short.
import { assembleContext } from './context-assembly';
import { log, reportCharter } from './context-assembly.testing';
import { estimateTokens } from './token-estimate';

describe('light pruning', () => {
  it('drops raw entries of milestones behind the agent and keeps their conclusions and markers', () => {
    const ctx = assembleContext({ charter: reportCharter(), currentMilestoneId: 'm2', log: log(), budgetTokens: 100_000 });
    expect(ctx.text).not.toContain('raw page m1');
    expect(ctx.text).not.toContain('web_search {"q":"acme competitors"}');
    expect(ctx.text).toContain('#5 milestone: m1 done');
    expect(ctx.text).toContain('m2 step 6');
    expect(ctx.dropped.logEntries).toBe(2);
  });

  it('when the agent reaches m3, the m2 raw log collapses too', () => {
    const ctx = assembleContext({ charter: reportCharter(), currentMilestoneId: 'm3', log: log(), budgetTokens: 100_000 });
    expect(ctx.text).not.toContain('m2 step');
    expect(ctx.text).toContain('Vendor B costs $12/seat');
  });

  it('cuts a long raw output of the current milestone to the per-entry limit', () => {
    const ctx = assembleContext({
      charter: reportCharter(),
      currentMilestoneId: 'm2',
      log: log(20_000, 1),
      budgetTokens: 1_000_000,
      options: { rawEntryTokens: 50 },
    });
    const line = ctx.text.split('\n').find((l) => l.startsWith('#6 '));
    expect(line).toContain('[pruned]');
    expect(estimateTokens(line ?? '')).toBeLessThanOrEqual(50 + estimateTokens('#6 action: '));
    expect(ctx.pruning).toBe('light');
  });
});
