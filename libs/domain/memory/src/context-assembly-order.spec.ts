// Context assembly puts the charter first, then STATE, the goal board, the relevant memories, then the log.
import { assembleContext } from './context-assembly';
import { GOAL_BOARD, log, memories, reportCharter, STATE } from './context-assembly.testing';

describe('context assembly order', () => {
  const ctx = assembleContext({
    charter: reportCharter(),
    state: STATE,
    goalBoard: GOAL_BOARD,
    currentMilestoneId: 'm2',
    memories: memories(),
    log: log(),
    budgetTokens: 100_000,
  });

  it('orders the sections charter, STATE, goal board, memories, log', () => {
    expect(ctx.sections.map((s) => s.name)).toEqual(['charter', 'state', 'goal_board', 'memories', 'log']);
    const at = (needle: string) => ctx.text.indexOf(needle);
    expect(at('CHARTER')).toBe(0);
    expect(at('CHARTER')).toBeLessThan(at('STATE'));
    expect(at('STATE')).toBeLessThan(at('GOAL BOARD'));
    expect(at('GOAL BOARD')).toBeLessThan(at('RELEVANT MEMORIES'));
    expect(at('RELEVANT MEMORIES')).toBeLessThan(at('OPERATION LOG'));
  });

  it('includes only memories of the current milestone or of the whole task, best first', () => {
    const memorySection = ctx.sections.find((s) => s.name === 'memories')?.text ?? '';
    expect(memorySection).not.toContain('2024 survey');
    const order = ['s3://acme/pricing.csv', 'prefers tables', 'charges per seat'].map((t) => memorySection.indexOf(t));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('uses conclusions instead of raw tool output and keeps user feedback', () => {
    const logSection = ctx.sections.find((s) => s.name === 'log')?.text ?? '';
    expect(logSection).toContain('#2 conclusion: Competitors: A, B, C, D, E');
    expect(logSection).not.toContain('search results m1');
    expect(logSection).toContain('#12 conclusion: Vendor B costs $12/seat');
    expect(logSection).toContain('#4 user feedback: Do not cite Wikipedia');
  });

  it('reports its size and stays light when far under budget', () => {
    expect(ctx.pruning).toBe('light');
    expect(ctx.overBudget).toBe(false);
    expect(ctx.tokens).toBe(ctx.sections.reduce((n, s) => n + s.tokens, 0) + 4);
  });
});
