// The LLM proxy's other paths (embedded): the real `openai` client's `models.list()` and
// `embeddings.create()`, and a raw `/v1/messages/count_tokens`, reach the tenant's upstream as they were
// sent (method, path below the base, query, the agent's own headers, body) and their answers come back
// unchanged; Wayfinder's headers never reach it. An answer past WAYFINDER_PROXY_MAX_RESPONSE_BYTES is a
// 502 in the OpenAI shape. With no upstream to pass to, the client gets a 404 in the OpenAI shape naming
// the path, not Express's `Cannot POST`. Wayfinder's own routes are served as before, and an unknown path
// of Wayfinder's API stays a 404 of its own.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI, { NotFoundError } from 'openai';
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

const A = 'acme-passthrough-key';
const B = 'globex-passthrough-key';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('paths of the proxy no route serves', () => {
  const seen: Seen[] = [];
  let server: Server;
  let upstreamUrl: string;
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req-fake' }).end(JSON.stringify(body));
        if (req.url === '/v1/models') return json(200, { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 1, owned_by: 'fake' }] });
        if (req.url === '/v1/embeddings') return json(200, { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.25, 0.5] }], model: 'fake-embed', usage: { prompt_tokens: 2, total_tokens: 2 } });
        if (req.url?.startsWith('/v1/messages/count_tokens')) return json(200, { input_tokens: 42 });
        if (req.url === '/v1/files/big/content') return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(4096, 7));
        return json(404, { error: { message: `no ${req.url} upstream`, type: 'invalid_request_error', param: null, code: 'unknown_url' } });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A},globex:${B}`, WAYFINDER_EGRESS_ALLOW: '127.0.0.1', WAYFINDER_PROXY_MAX_RESPONSE_BYTES: '2048' });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    expect((await call(base, 'PUT', '/v1/policy', { key: A, body: { policy: {}, proxy: { upstream: upstreamUrl } } })).status).toBe(200);
  });
  afterAll(async () => {
    await running?.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const client = (key: string) => new OpenAI({ apiKey: 'sk-agent-own', baseURL: `${base}/v1`, maxRetries: 0, timeout: 10_000, defaultHeaders: { 'X-Wayfinder-Key': key, 'X-Wayfinder-Agent': 'embedder' } });

  it('passes models and embeddings through to the upstream and their answers back', async () => {
    const models = await client(A).models.list();
    expect(models.data.map((m) => m.id)).toEqual(['fake-model']);
    const embedding = await client(A).embeddings.create({ model: 'fake-embed', input: 'hello', encoding_format: 'float' });
    expect(embedding.data[0].embedding).toEqual([0.25, 0.5]);
    const [list, embed] = seen.slice(-2);
    expect(list).toMatchObject({ method: 'GET', url: '/v1/models', body: '' });
    expect(embed).toMatchObject({ method: 'POST', url: '/v1/embeddings' });
    expect(JSON.parse(embed.body)).toMatchObject({ model: 'fake-embed', input: 'hello' });
    for (const s of [list, embed]) {
      expect(s.headers.authorization).toBe('Bearer sk-agent-own');
      expect(Object.keys(s.headers).filter((h) => h.startsWith('x-wayfinder'))).toEqual([]);
    }
    // The tenant key goes in X-Wayfinder-Key: a Wayfinder bearer key alone is refused, never forwarded.
    const before = seen.length;
    const bearerOnly = await call(base, 'GET', '/v1/models', { key: A });
    expect(bearerOnly).toMatchObject({ status: 401, body: { error: { type: 'authentication_error' } } });
    expect(seen.length).toBe(before);
  });

  it('passes /v1/messages/count_tokens to the Anthropic upstream with its query and headers', async () => {
    const res = await fetch(`${base}/v1/messages/count_tokens?beta=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-wayfinder-key': A, 'x-api-key': 'sk-ant-own', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'token-counting-2024-11-01' },
      body: JSON.stringify({ model: 'claude-fake', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('req-fake');
    expect(await res.json()).toEqual({ input_tokens: 42 });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/v1/messages/count_tokens?beta=true', headers: { 'x-api-key': 'sk-ant-own', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'token-counting-2024-11-01' } });
  });

  it('passes upstream errors back as they came, and bounds the answer like chat completions', async () => {
    const missing = await call(base, 'POST', '/v1/vector_stores/vs_1/search', { headers: { 'x-wayfinder-key': A }, body: { query: 'x' } });
    expect(missing).toMatchObject({ status: 404, body: { error: { code: 'unknown_url', message: 'no /v1/vector_stores/vs_1/search upstream' } } });
    const big = await call(base, 'GET', '/v1/files/big/content', { headers: { 'x-wayfinder-key': A } });
    expect(big.status).toBe(502);
    expect(big.body).toMatchObject({ error: { type: 'server_error', message: expect.stringContaining('WAYFINDER_PROXY_MAX_RESPONSE_BYTES') } });
  });

  it('answers an OpenAI-shaped 404 naming the path when no upstream is set, never Express’s page', async () => {
    const before = seen.length;
    await expect(client(B).models.list()).rejects.toBeInstanceOf(NotFoundError);
    const raw = await call(base, 'POST', '/v1/batches', { headers: { 'x-wayfinder-key': B }, body: { input_file_id: 'file_1' } });
    expect(raw.status).toBe(404);
    expect(raw.body).toEqual({ error: { message: expect.stringContaining('POST /v1/batches'), type: 'not_found_error', param: null, code: null } });
    expect(seen.length).toBe(before);
  });

  it('leaves Wayfinder’s own routes alone', async () => {
    expect((await call(base, 'GET', '/v1/fleet', { key: A })).status).toBe(200);
    expect((await call(base, 'GET', '/v1/agents', { key: A })).status).toBe(200);
    expect((await call(base, 'POST', '/v1/steps', { key: A, body: { agentId: 'a1', taskId: 't1', seq: 0, kind: 'message', message: { role: 'assistant', text: 'hi' } } })).status).toBe(202);
    const before = seen.length;
    const unknown = await call(base, 'GET', '/v1/steps/nope', { key: A, headers: { 'x-wayfinder-key': A } });
    expect(unknown).toMatchObject({ status: 404, body: { error: expect.stringContaining('/v1/steps/nope') } });
    expect(seen.length).toBe(before);
  });
});
