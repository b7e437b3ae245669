/**
 * A fake Anthropic Messages API on a local port (node:http), for the LLM proxy's `/v1/messages` specs:
 * every answer says a short text and asks for the same tool use (`read_file {"path":"/data/sales.csv"}`),
 * as a `message` or, when the request says `stream: true`, as the API's event stream (message_start,
 * content_block_start/delta/stop with text_delta and input_json_delta split across events, message_delta,
 * message_stop). `POST /v1/messages/count_tokens` answers a count. It records every request (path,
 * headers, body) so a spec can see what reached it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AnthropicUpstreamRequest {
  path: string;
  headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: { system?: string | Array<{ type: string; text: string }>; messages: Array<{ role: string; content: any }>; stream?: boolean; [key: string]: unknown };
}

export interface FakeAnthropicUpstream {
  /** The base URL a tenant's policy names (`http://127.0.0.1:PORT/v1`). */
  readonly url: string;
  readonly requests: AnthropicUpstreamRequest[];
  close(): Promise<void>;
}

export const FAKE_TEXT = 'Let me read the sales data.';

export async function startFakeAnthropicUpstream(): Promise<FakeAnthropicUpstream> {
  const requests: AnthropicUpstreamRequest[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as AnthropicUpstreamRequest['body'];
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.url?.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 42 }));
        return;
      }
      const id = `toolu_${++n}`;
      const input = { path: '/data/sales.csv' };
      const message = { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-fake', stop_sequence: null };
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${n}` });
        const event = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
        const json = JSON.stringify(input);
        event('message_start', { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 30, output_tokens: 1 } } });
        event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        event('ping', {});
        event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: FAKE_TEXT.slice(0, 9) } });
        event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: FAKE_TEXT.slice(9) } });
        event('content_block_stop', { index: 0 });
        event('content_block_start', { index: 1, content_block: { type: 'tool_use', id, name: 'read_file', input: {} } });
        event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '' } });
        event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: json.slice(0, 6) } });
        event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: json.slice(6) } });
        event('content_block_stop', { index: 1 });
        event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 12 } });
        event('message_stop', {});
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${n}` });
      res.end(
        JSON.stringify({
          ...message,
          content: [
            { type: 'text', text: FAKE_TEXT },
            { type: 'tool_use', id, name: 'read_file', input },
          ],
          stop_reason: 'tool_use',
          usage: { input_tokens: 30, output_tokens: 12 },
        }),
      );
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
