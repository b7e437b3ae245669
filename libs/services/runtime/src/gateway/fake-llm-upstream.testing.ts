/**
 * A fake OpenAI-compatible upstream on a local port (node:http), for the LLM proxy's specs: every answer
 * asks for the same tool call (`read_file {"path":"/data/sales.csv"}`), as a JSON completion or, when the
 * request says `stream: true`, as Server-Sent Events whose deltas split the call's id, name and arguments
 * across chunks. It records every request (headers and body) so a spec can see what reached it; a request
 * whose last message is the user's `fail with 418` gets an error answer in OpenAI's shape instead.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface UpstreamRequest {
  headers: IncomingHttpHeaders;
  body: { messages: Array<{ role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string }>; stream?: boolean; [key: string]: unknown };
}

export interface FakeLlmUpstream {
  /** The base URL (`http://127.0.0.1:PORT/v1`). */
  readonly url: string;
  readonly requests: UpstreamRequest[];
  close(): Promise<void>;
}

export async function startFakeLlmUpstream(options: { record?: boolean } = {}): Promise<FakeLlmUpstream> {
  const requests: UpstreamRequest[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as UpstreamRequest['body'];
      if (options.record !== false) requests.push({ headers: req.headers, body });
      const last = body.messages[body.messages.length - 1];
      if (last?.role === 'user' && last.content === 'fail with 418') {
        res.writeHead(418, { 'content-type': 'application/json', 'x-request-id': 'req-teapot', 'set-cookie': 'upstream=1; Path=/' }).end(JSON.stringify({ error: { message: 'I am a teapot', type: 'invalid_request_error', param: 'messages', code: 'teapot' } }));
        return;
      }
      const id = `call_${++n}`;
      const args = JSON.stringify({ path: '/data/sales.csv' });
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
          res.write(`data: ${JSON.stringify({ id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1, model: 'fake', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
        chunk({ role: 'assistant', content: null });
        chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: 'read_file', arguments: '' } }] });
        chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, 7) } }] });
        chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(7) } }] });
        chunk({}, 'tool_calls');
        res.write(`data: ${JSON.stringify({ id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1, model: 'fake', choices: [], usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 } })}\n\n`);
        res.end('data: [DONE]\n\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req-${n}` });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${n}`,
          object: 'chat.completion',
          created: 1,
          model: 'fake',
          choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: args } }] }, finish_reason: 'tool_calls' }],
          usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
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
