/**
 * A fake OpenAI Responses upstream on a local port (node:http): every response is one assistant message
 * (`RESPONSES_TEXT`) and the same function call (`read_file`, `RESPONSES_ARGS`), as JSON or, when the
 * request says `stream: true`, as the Responses streaming events (text and arguments split across deltas).
 * It records each request's Authorization and body.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const RESPONSES_TEXT = 'Reading the sales data.';
export const RESPONSES_ARGS = JSON.stringify({ path: '/data/sales.csv' });

export interface ResponsesRequest {
  authorization?: string;
  body: { instructions?: string; input: unknown; stream?: boolean };
}

export interface FakeResponsesUpstream {
  /** The base URL (`http://127.0.0.1:PORT/v1`). */
  readonly url: string;
  readonly received: ResponsesRequest[];
  close(): Promise<void>;
}

export async function startFakeResponsesUpstream(): Promise<FakeResponsesUpstream> {
  const received: ResponsesRequest[] = [];
    let n = 0;
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ResponsesRequest['body'];
        received.push({ authorization: req.headers.authorization, body });
        n++;
        const message = { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: RESPONSES_TEXT, annotations: [] }] };
        const fn = { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: 'read_file', arguments: RESPONSES_ARGS, status: 'completed' };
        const response = { id: `resp_${n}`, object: 'response', created_at: 1, status: 'completed', model: 'fake', output: [message, fn], usage: { input_tokens: 20, output_tokens: 5, total_tokens: 25 } };
        if (!body.stream) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response));
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        let seq = 0;
        const event = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
        event('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } });
        event('response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } });
        event('response.output_text.delta', { item_id: message.id, output_index: 0, content_index: 0, delta: RESPONSES_TEXT.slice(0, 7) });
        event('response.output_text.delta', { item_id: message.id, output_index: 0, content_index: 0, delta: RESPONSES_TEXT.slice(7) });
        event('response.output_item.done', { output_index: 0, item: message });
        event('response.output_item.added', { output_index: 1, item: { ...fn, arguments: '', status: 'in_progress' } });
        event('response.function_call_arguments.delta', { item_id: fn.id, output_index: 1, delta: RESPONSES_ARGS.slice(0, 5) });
        event('response.function_call_arguments.delta', { item_id: fn.id, output_index: 1, delta: RESPONSES_ARGS.slice(5) });
        event('response.function_call_arguments.done', { item_id: fn.id, output_index: 1, arguments: RESPONSES_ARGS });
        event('response.output_item.done', { output_index: 1, item: fn });
        event('response.completed', { response });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
