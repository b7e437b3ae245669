/** A hint becomes a system message right after the agent's own system prompt; a later hint replaces it. */
import { applyCorrection } from './apply-correction';
import { hint } from './correction-fixtures.testing';

describe('applyCorrection: hint', () => {
  it('puts the hint after the leading system prompt and replaces an earlier hint', () => {
    const messages = [
      { role: 'system', content: 'You are a data analyst.' },
      { role: 'user', content: 'Write the sales report.' },
      { role: 'assistant', content: 'Reading the data.' },
    ];
    const once = applyCorrection(messages, hint('Stop re-reading sales.csv; it is unreadable.'));
    expect(once.map((m) => m.content)).toEqual(['You are a data analyst.', 'Stop re-reading sales.csv; it is unreadable.', 'Write the sales report.', 'Reading the data.']);
    expect(once[1].role).toBe('system');
    expect(messages).toHaveLength(3); // the input is not modified

    const twice = applyCorrection([...once, { role: 'assistant', content: 'Trying again.' }], hint('Ask the user for access.', 2));
    expect(twice.map((m) => m.content)).toEqual(['You are a data analyst.', 'Ask the user for access.', 'Write the sales report.', 'Reading the data.', 'Trying again.']);
  });

  it('puts it first when the agent has no system prompt, in the agent\'s message format', () => {
    const messages = [{ role: 'user', parts: [{ text: 'hi' }] }];
    const out = applyCorrection(messages, hint('Be brief.'), { systemMessage: (text) => ({ role: 'system', parts: [{ text }] }) });
    expect(out).toEqual([{ role: 'system', parts: [{ text: 'Be brief.' }] }, { role: 'user', parts: [{ text: 'hi' }] }]);
  });
});
