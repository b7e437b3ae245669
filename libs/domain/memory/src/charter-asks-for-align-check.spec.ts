// The charter opening every context asks the agent for its alignment self-check, with the three questions
// the align_check_failed detector reads; a bare template (nothing answered) reads as all clear.
import { ALIGN_CHECK_TEMPLATE, createCharter, renderCharter } from './charter';

describe('the charter asks for an [ALIGN-CHECK]', () => {
  it('ends with the self-check block and its three questions, after the constraints', () => {
    const text = renderCharter(createCharter('Compare vendors', [{ text: 'Only output JSON' }]));
    expect(text.endsWith(ALIGN_CHECK_TEMPLATE)).toBe(true);
    expect(text.indexOf('1. Only output JSON')).toBeLessThan(text.indexOf('[ALIGN-CHECK]'));
    for (const q of ['Still serving the goal?', 'Did the last steps advance the current sub-task?', 'Any hard constraint violated?']) expect(text).toContain(q);
    expect(text).toContain('[/ALIGN-CHECK]');
  });

  it('asks for it even when there are no constraints', () => {
    expect(renderCharter(createCharter('翻译这份说明书'))).toContain('[ALIGN-CHECK]');
  });
});
