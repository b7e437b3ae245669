/**
 * A rollback through `POST /v1/responses` (proxy-rollback.ts) removes the `input` items the rolled-back
 * conversation messages came from: a run of assistant items (and the reasoning before them) with the
 * call, the call's output, and nothing of `instructions`.
 */
import { conversationOf, withoutConversationItems } from './openai-responses';

describe('withoutConversationItems', () => {
  const body = {
    model: 'gpt-fake',
    instructions: 'You are the report agent.',
    input: [
      { role: 'user', content: 'write the report' },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'function_call', call_id: 'c1', name: 'read_file', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'rows 1' },
      { type: 'reasoning', id: 'rs_2', summary: [] },
      { type: 'message', role: 'assistant', content: 'reading again' },
      { type: 'function_call', call_id: 'c2', name: 'read_file', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c2', output: 'rows 2' },
    ],
  };

  it('maps conversation messages back to their items', () => {
    // system, user, assistant(c1), tool(c1), assistant(text + c2), tool(c2)
    expect(conversationOf(body.instructions, body.input).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(withoutConversationItems(body, new Set([4, 5])).input).toEqual(body.input.slice(0, 4));
    expect(withoutConversationItems(body, new Set([2, 3, 4, 5])).input).toEqual(body.input.slice(0, 1));
    expect(withoutConversationItems(body, new Set([0, 4, 5]))).toMatchObject({ instructions: 'You are the report agent.' });
  });

  it('leaves a string input alone', () => {
    const plain = { model: 'gpt-fake', input: 'hi' };
    expect(withoutConversationItems(plain, new Set([0]))).toBe(plain);
  });
});
