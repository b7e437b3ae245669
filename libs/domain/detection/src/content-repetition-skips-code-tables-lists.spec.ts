/** content_repetition leaves structure alone: code blocks, tables and lists repeat lines by design. */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('repeated lines inside code blocks, tables and lists', () => {
  it('flags none of them', () => {
    const s = steps();
    const row = '| pending | waiting for the payment provider to confirm |';
    const item = '- waiting for the payment provider to confirm the order';
    const code = 'assert response.status_code == 200, "unexpected status from the API"';
    const text = [
      'Here is the status of the orders:',
      '| state | meaning |', '| --- | --- |', row, row, row, row,
      'The remaining ones:', item, item, item, item,
      'And the test:', '```python', code, code, code, code, '```',
    ].join('\n');
    expect(runAll(engineFor(), [s.act('list_orders', {}), s.ok('list_orders', 'ok'), s.say(text)])).toEqual([]);
  });
});
