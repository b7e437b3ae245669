// An upstream answering hundreds of MiB cannot make the LLM proxy hold them (issue #29: two 300 MiB
// answers took the gateway to 2 GB RSS). Scaled down: a 4 MiB answer against a 1 MiB
// WAYFINDER_PROXY_MAX_RESPONSE_BYTES. A whole (non-streamed) answer past the bound → 502 in the OpenAI
// error shape, and the controller never held more than the bound; a streamed one is passed to the client
// whole, its over-long line left out of step derivation, the normal lines after it still assembled.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChatCompletionsController } from '@wayfinder/service-gateway';
import type { RunningServices } from '../runtime';
import { startWithGateway } from './gateway.testing';

const A = 'acme-proxy-bound-key';
const MiB = 1024 * 1024;
const BODY = 4 * MiB;

function bigCompletion(): string {
  const content = 'z'.repeat(BODY);
  return JSON.stringify({ id: 'chatcmpl-big', object: 'chat.completion', created: 1, model: 'fake', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
}

const delta = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

describe('a 300 MiB upstream answer leaves the proxy’s memory bounded', () => {
  let upstream: Server;
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { stream?: boolean; user?: string };
        if (body.stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          const line = delta('s'.repeat(BODY));
          for (let at = 0; at < line.length; at += 64 * 1024) res.write(line.slice(at, at + 64 * 1024));
          res.write(delta('the end'));
          res.end('data: [DONE]\n\n');
          return;
        }
        if (body.user === 'small') {
          res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req-small' });
          res.end(JSON.stringify({ id: 'chatcmpl-small', object: 'chat.completion', created: 1, model: 'fake', choices: [{ index: 0, message: { role: 'assistant', content: 'short' }, finish_reason: 'stop' }] }));
          return;
        }
        // Chunked (no content-length), so the bound is met while reading, not from the header.
        res.writeHead(200, { 'content-type': 'application/json', ...(body.user === 'sized' && { 'content-length': String(Buffer.byteLength(bigCompletion())) }) });
        const text = bigCompletion();
        for (let at = 0; at < text.length; at += 64 * 1024) res.write(text.slice(at, at + 64 * 1024));
        res.end();
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A}`, WAYFINDER_PROXY_UPSTREAM: url, WAYFINDER_PROXY_MAX_RESPONSE_BYTES: String(1 * MiB) });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
  });
  afterAll(async () => {
    await running?.stop();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  const post = (agent: string, body: Record<string, unknown>) =>
    fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-wayfinder-key': A, 'x-wayfinder-agent': agent },
      body: JSON.stringify({ model: 'fake', messages: [{ role: 'user', content: 'say a lot' }], ...body }),
    });

  it('refuses a whole answer past the bound with 502 in the OpenAI shape, holding at most the bound', async () => {
    for (const user of ['chunked', 'sized']) {
      const response = await post(`agent-${user}`, { user });
      expect(response.status).toBe(502);
      const body = (await response.json()) as { error: { message: string; type: string } };
      expect(body.error.type).toBe('server_error');
      expect(body.error.message).toMatch(/WAYFINDER_PROXY_MAX_RESPONSE_BYTES/);
    }
    const controller = running.gateway!.app.get(ChatCompletionsController); // eslint-disable-line @typescript-eslint/no-non-null-assertion
    expect(controller.largestBuffered).toBeGreaterThan(0);
    expect(controller.largestBuffered).toBeLessThanOrEqual(1 * MiB);
  });

  it('still passes an answer under the bound as it is', async () => {
    const response = await post('agent-small', { user: 'small' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('req-small');
    expect(((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0].message.content).toBe('short');
  });

  it('passes a stream past the bound to the client whole', async () => {
    const response = await post('agent-stream', { stream: true });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.length).toBeGreaterThan(BODY);
    expect(text).toContain(delta('the end'));
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});
