// Heavy pruning at 65% of the budget: only conclusions, feedback and the latest raw steps stay; constraints are never pruned.
import { assembleContext } from './context-assembly';
import { GOAL_BOARD, log, memories, reportCharter, STATE } from './context-assembly.testing';

describe('heavy pruning', () => {
  const input = {
    charter: reportCharter(),
    state: STATE,
    goalBoard: GOAL_BOARD,
    currentMilestoneId: 'm2',
    memories: memories(),
    log: log(800, 40),
  };

  it('starts at the threshold share of the budget and brings the context back under it', () => {
    const roomy = assembleContext({ ...input, budgetTokens: 1_000_000 });
    expect(roomy.pruning).toBe('light');
    const budgetTokens = Math.ceil(roomy.tokens / 0.8); // light pruning lands at 80% of this budget
    const ctx = assembleContext({ ...input, budgetTokens });
    expect(ctx.pruning).toBe('heavy');
    expect(ctx.tokens).toBeLessThan(0.65 * budgetTokens);
    expect(ctx.overBudget).toBe(false);
  });

  it('keeps the charter with every constraint, STATE, feedback and conclusions, and only the latest raw steps', () => {
    const ctx = assembleContext({ ...input, budgetTokens: 4_000 });
    expect(ctx.pruning).toBe('heavy');
    expect(ctx.sections[0].name).toBe('charter');
    for (const constraint of ['1. Only use public sources', '2. Never contact the competitors', '3. Do not cite Wikipedia']) {
      expect(ctx.text).toContain(constraint);
    }
    expect(ctx.text).toContain(STATE);
    expect(ctx.text).toContain('#4 user feedback: Do not cite Wikipedia');
    const rawSteps = ctx.text.split('\n').filter((l) => / m2 step /.test(l));
    expect(rawSteps.length).toBeLessThanOrEqual(3);
    expect(ctx.text).not.toContain('m2 step 6 ');
    expect(ctx.dropped.logEntries).toBeGreaterThan(30);
  });

  it('under a budget too small for anything, constraints still survive and the overflow is reported', () => {
    const ctx = assembleContext({ ...input, budgetTokens: 10 });
    expect(ctx.text).toContain('2. Never contact the competitors');
    expect(ctx.text).toContain('3. Do not cite Wikipedia');
    expect(ctx.sections.map((s) => s.name)).not.toContain('memories');
    expect(ctx.overBudget).toBe(true);
  });
});
