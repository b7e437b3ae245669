/** A replan replaces the plan message (the agent's, found by `isPlan`, or one an earlier replan put in) with the new path. */
import { applyCorrection } from './apply-correction';
import { replan } from './correction-fixtures.testing';

describe('applyCorrection: replan', () => {
  it('replaces the agent\'s plan, then its own plan on the next replan', () => {
    const messages = [
      { role: 'system', content: 'You are a data analyst.' },
      { role: 'user', content: 'Write the sales report.' },
      { role: 'assistant', content: 'PLAN: 1. read data 2. compute totals 3. write report' },
      { role: 'assistant', content: 'computing…' },
    ];
    const names: Record<string, string> = { 'read-data': 'Read the sales data', totals: 'Compute the totals', report: 'Write the report' };
    const options = { isPlan: (m: { content: string }) => m.content.startsWith('PLAN:'), describeMilestone: (id: string) => names[id] ?? id };
    const once = applyCorrection(messages, replan(['totals', 'report']), options);
    expect(once.map((m) => m.content)).toEqual([
      'You are a data analyst.',
      'Write the sales report.',
      'Revised plan (from milestone Read the sales data): stuck computing totals\n1. Compute the totals\n2. Write the report',
      'computing…',
    ]);
    const twice = applyCorrection(once, replan(['report']), options);
    expect(twice).toHaveLength(4);
    expect(twice[2].content).toBe('Revised plan (from milestone Read the sales data): stuck computing totals\n1. Write the report');
  });

  it('adds the plan after the system prompt when the agent keeps none', () => {
    const out = applyCorrection([{ role: 'system', content: 'sys' }, { role: 'user', content: 'task' }], replan(['report']));
    expect(out.map((m) => m.role)).toEqual(['system', 'system', 'user']);
    expect(out[1].content).toContain('1. report');
  });
});
