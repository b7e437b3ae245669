// An Anthropic Messages request read as the chat conversation the proxy tracks: system blocks, tool uses
// and tool results (is_error a failed observation whatever its text), a longer history read with the
// same beginning; guidance appended to system in each of its shapes; bad input naming the field.
import fc from 'fast-check';
import { requestSteps } from '@wayfinder/ingest';
import { conversationOf, markFailedResults, readMessagesRequest, withSystemGuidance } from './anthropic-messages';

const identity = { tenantId: 't', agentId: 'a', taskId: 'k', runId: 'r' };
const turn = (n: number, isError: boolean) => [
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'hmm', signature: 's' },
      { type: 'text', text: `try ${n}` },
      { type: 'tool_use', id: `toolu_${n}`, name: 'read_file', input: { path: '/x' } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${n}`, content: [{ type: 'text', text: 'permission denied' }], ...(isError && { is_error: true }) }, { type: 'text', text: 'go on' }] },
];

describe('an Anthropic request read as a conversation', () => {
  it('reads system blocks, tool uses and tool results; is_error makes the observation failed', () => {
    const read = readMessagesRequest({ model: 'm', max_tokens: 5, system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Use tools.' }], messages: [{ role: 'user', content: 'hi' }, ...turn(1, true)] });
    if (!read.ok) throw new Error(read.error);
    expect(read.value.messages).toEqual([
      { role: 'system', content: 'Be brief.\nUse tools.' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'try 1', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"/x"}' } }] },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'permission denied', is_error: true },
      { role: 'user', content: [{ type: 'text', text: 'go on' }] },
    ]);
    const { steps } = requestSteps(read.value.messages, 0, identity, 0, '2026-01-01T00:00:00.000Z');
    markFailedResults(read.value.messages, steps);
    expect(steps.map((s) => s.kind)).toEqual(['message', 'action', 'observation']);
    expect(steps[1]).toMatchObject({ action: { tool: 'read_file', args: { path: '/x' }, callId: 'toolu_1' } });
    expect(steps[2]).toMatchObject({ observation: { tool: 'read_file', ok: false, callId: 'toolu_1', error: 'permission denied' } });
    // Without is_error the text decides, as for chat completions' tool messages.
    const unflagged = conversationOf(undefined, turn(2, false));
    const plain = requestSteps(unflagged, 0, identity, 0, '2026-01-01T00:00:00.000Z').steps;
    markFailedResults(unflagged, plain);
    expect(plain[2]).toMatchObject({ observation: { ok: true } });
  });

  it('reads a longer history with the same beginning (what the conversation tracker relies on)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), fc.nat(), (errors, cut) => {
        const messages = [{ role: 'user', content: 'start' }, ...errors.flatMap((e, n) => turn(n, e))];
        const k = 1 + (cut % messages.length);
        const whole = conversationOf('sys', messages);
        const prefix = conversationOf('sys', messages.slice(0, k));
        expect(whole.slice(0, prefix.length)).toEqual(prefix);
      }),
    );
  });

  it('appends guidance to a system string, as a last block of system blocks, or as the system', () => {
    const blocks = [{ type: 'text', text: 'A', cache_control: { type: 'ephemeral' } }];
    expect(withSystemGuidance({ system: 'A', model: 'm' }, 'H')).toEqual({ system: 'A\n\nH', model: 'm' });
    expect(withSystemGuidance({ system: blocks }, 'H')).toEqual({ system: [...blocks, { type: 'text', text: 'H' }] });
    expect(withSystemGuidance({ messages: [] }, 'H')).toEqual({ messages: [], system: 'H' });
  });

  it('names the agent by Claude Code’s session in metadata.user_id, the one its hooks report as', () => {
    const session = '0f8e2c4a-1b2d-4e6f-8a9b-0c1d2e3f4a5b';
    const read = readMessagesRequest({ messages: [{ role: 'user', content: 'hi' }], metadata: { user_id: `user_${'ab'.repeat(32)}_account_9d0e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a_session_${session}` } });
    expect(read).toMatchObject({ ok: true, value: { user: session } });
    expect(readMessagesRequest({ messages: [{ role: 'user', content: 'hi' }], metadata: { user_id: 'report-bot-7' } })).toMatchObject({ ok: true, value: { user: 'report-bot-7' } });
  });

  it('refuses what the proxy cannot read, naming the field', () => {
    expect(readMessagesRequest({ messages: [] })).toMatchObject({ ok: false, field: 'messages' });
    expect(readMessagesRequest({ messages: [{ role: 'user', content: 5 }] })).toMatchObject({ ok: false, field: 'messages[0].content' });
    expect(readMessagesRequest({ messages: [{ role: 'user', content: [{ text: 'no type' }] }] })).toMatchObject({ ok: false, field: 'messages[0].content[0]' });
    expect(readMessagesRequest({ messages: [{ role: 'user', content: 'hi' }], system: 7 })).toMatchObject({ ok: false, field: 'system' });
    expect(readMessagesRequest({ messages: [{ role: 'user', content: 'hi' }], metadata: { user_id: 3 } })).toMatchObject({ ok: false, field: 'metadata.user_id' });
  });
});
