// A streamed completion's bytes may be cut anywhere (inside a line, inside a UTF-8 character): any cut
// gives the same answer, the content deltas joined and the tool calls gathered by index.
import fc from 'fast-check';
import { ChatStreamAssembler } from './chat-stream';

const events = [
  { choices: [{ index: 0, delta: { role: 'assistant', content: 'Je lis le fichier ' } }] },
  { choices: [{ index: 0, delta: { content: '« ventes » 📄' } }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } }] } }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'search', arguments: '{"q":' } }] } }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"path":"/données/ventes.csv"}' } }] } }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: '"totaux"}' } }] } }] },
  { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  { choices: [], usage: { prompt_tokens: 31, completion_tokens: 12, total_tokens: 43 } },
];
const bytes = new TextEncoder().encode(`${events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join(': keep-alive\n\n')}data: [DONE]\n\n`);
const expected = {
  text: 'Je lis le fichier « ventes » 📄',
  toolCalls: [
    { id: 'call_a', name: 'read_file', arguments: '{"path":"/données/ventes.csv"}' },
    { id: 'call_b', name: 'search', arguments: '{"q":"totaux"}' },
  ],
  finishReason: 'tool_calls',
  usage: { inputTokens: 31, outputTokens: 12 },
};

describe('ChatStreamAssembler', () => {
  it('gives the same answer however the bytes are cut', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), (cuts) => {
        const assembler = new ChatStreamAssembler();
        let at = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          assembler.push(bytes.slice(at, cut));
          at = cut;
        }
        assembler.push(bytes.slice(at));
        expect(assembler.answer()).toEqual(expected);
        expect(assembler.done).toBe(true);
        expect(assembler.unreadable).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('counts a line that is not JSON instead of throwing, and keeps a name repeated in every delta once', () => {
    const assembler = new ChatStreamAssembler();
    assembler.push('data: {not json\n\n');
    assembler.push(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'ls', arguments: '{}' } }] } }] })}\n\n`);
    assembler.push(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { name: 'ls' } }] } }] })}\n\n`);
    assembler.push(`data: ${JSON.stringify({ choices: [{ index: 1, delta: { content: 'the second choice is not the answer' } }] })}`);
    expect(assembler.answer()).toEqual({ text: '', toolCalls: [{ id: 'c', name: 'ls', arguments: '{}' }] });
    expect(assembler.unreadable).toBe(1);
    expect(assembler.done).toBe(false);
  });
});
