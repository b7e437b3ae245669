// The Anthropic and Responses stream assemblers read the same answer however the bytes are cut (inside a
// line, inside a multi-byte character), and it is the answer of the same response sent whole.
import fc from 'fast-check';
import { answerOfMessage, MessagesStreamAssembler } from './anthropic-messages';
import { answerOfResponse, ResponsesStreamAssembler } from './openai-responses';
import type { StreamAssembler } from './proxy-exchange';

const TEXT = 'Lecture des données — 売上 📈';
const INPUT = { path: '/data/ventes é.csv', n: 3 };

function anthropicStream(): string {
  const json = JSON.stringify(INPUT);
  const events: Array<[string, Record<string, unknown>]> = [
    ['message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 30, cache_read_input_tokens: 70, output_tokens: 1 } } }],
    ['content_block_start', { index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { index: 0, delta: { type: 'text_delta', text: TEXT.slice(0, 11) } }],
    ['content_block_delta', { index: 0, delta: { type: 'text_delta', text: TEXT.slice(11) } }],
    ['content_block_stop', { index: 0 }],
    ['content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: {} } }],
    ['content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: json.slice(0, 9) } }],
    ['content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: json.slice(9) } }],
    ['content_block_stop', { index: 1 }],
    ['message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 12 } }],
    ['message_stop', {}],
  ];
  return events.map(([type, data]) => `event: ${type}\r\ndata: ${JSON.stringify({ type, ...data })}\r\n\r\n`).join('');
}

const MESSAGE = {
  type: 'message',
  content: [
    { type: 'text', text: TEXT },
    { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: INPUT },
  ],
  stop_reason: 'tool_use',
  usage: { input_tokens: 30, cache_read_input_tokens: 70, output_tokens: 12 },
};

const OUTPUT = [
  { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: TEXT, annotations: [] }] },
  { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'read_file', arguments: JSON.stringify(INPUT) },
];
const RESPONSE = { id: 'resp_1', object: 'response', status: 'completed', output: OUTPUT, usage: { input_tokens: 20, output_tokens: 5 } };

function responsesStream(): string {
  const events: Array<Record<string, unknown>> = [
    { type: 'response.created', response: { ...RESPONSE, status: 'in_progress', output: [], usage: null } },
    { type: 'response.output_text.delta', output_index: 0, delta: TEXT },
    { type: 'response.output_item.done', output_index: 0, item: OUTPUT[0] },
    { type: 'response.output_item.done', output_index: 1, item: OUTPUT[1] },
    { type: 'response.completed', response: RESPONSE },
  ];
  return events.map((e) => `event: ${e.type as string}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

function fed(assembler: StreamAssembler, bytes: Buffer, cuts: number[]) {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    assembler.push(bytes.subarray(from, cut));
    from = cut;
  }
  return assembler.answer();
}

describe('dialect stream assemblers', () => {
  it('read an Anthropic message stream cut anywhere as the message sent whole', () => {
    const bytes = Buffer.from(anthropicStream(), 'utf8');
    const whole = answerOfMessage(MESSAGE);
    expect(whole).toEqual({ text: TEXT, toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: JSON.stringify(INPUT) }], finishReason: 'tool_use', usage: { inputTokens: 100, outputTokens: 12 } });
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
        const answer = fed(new MessagesStreamAssembler(1 << 20), bytes, cuts);
        expect({ ...answer, toolCalls: answer.toolCalls.map((c) => ({ ...c, arguments: JSON.stringify(JSON.parse(c.arguments)) })) }).toEqual(whole);
      }),
    );
  });

  it('read a Responses stream cut anywhere as the response sent whole', () => {
    const bytes = Buffer.from(responsesStream(), 'utf8');
    const whole = answerOfResponse(RESPONSE);
    expect(whole).toEqual({ text: TEXT, toolCalls: [{ id: 'call_1', name: 'read_file', arguments: JSON.stringify(INPUT) }], finishReason: 'completed', usage: { inputTokens: 20, outputTokens: 5 } });
    fc.assert(fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => expect(fed(new ResponsesStreamAssembler(1 << 20), bytes, cuts)).toEqual(whole)));
  });

  it('keeps no line past the bound: an overlong event is dropped and counted, the rest still read', () => {
    const assembler = new MessagesStreamAssembler(200);
    assembler.push(`data: ${JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'x'.repeat(500) } })}\n\n`);
    assembler.push(`data: ${JSON.stringify({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't', name: 'read_file', input: {} } })}\n\n`);
    const answer = assembler.answer();
    expect(assembler.dropped).toBe(1);
    expect(answer).toMatchObject({ text: '', toolCalls: [{ id: 't', name: 'read_file' }] });
  });
});
