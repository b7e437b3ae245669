// A chat completion body the proxy cannot read is refused naming the field it stopped at.
import { readChatRequest } from './chat-request';

describe('readChatRequest', () => {
  it.each([
    ['not an object', [], '(root)'],
    ['no messages', { model: 'm' }, 'messages'],
    ['empty messages', { messages: [] }, 'messages'],
    ['a message that is no object', { messages: ['hi'] }, 'messages[0]'],
    ['a message without a role', { messages: [{ role: 'user', content: 'a' }, { content: 'b' }] }, 'messages[1].role'],
    ['tool_calls that are no array', { messages: [{ role: 'assistant', tool_calls: {} }] }, 'messages[0].tool_calls'],
    ['a tool_call_id that is no string', { messages: [{ role: 'tool', tool_call_id: 7 }] }, 'messages[0].tool_call_id'],
    ['stream that is no boolean', { messages: [{ role: 'user' }], stream: 'yes' }, 'stream'],
    ['user that is no string', { messages: [{ role: 'user' }], user: 1 }, 'user'],
  ])('%s → %s', (_what, body, field) => {
    expect(readChatRequest(body)).toMatchObject({ ok: false, field });
  });

  it('keeps the whole body to forward, unknown fields included', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi', extra: 1 }], temperature: 0.2, stream: true, user: 'u1' };
    expect(readChatRequest(body)).toEqual({ ok: true, value: { messages: body.messages, stream: true, user: 'u1', body } });
  });
});
