// Issue #29: the LLM proxy posted to its upstream with every header the client sent — Cookie,
// Metadata-Flavor, X-Forwarded-*, … — and handed the upstream's headers back as they came (Set-Cookie on
// the gateway's origin included). Now only an allow-list goes each way. A local upstream records what it
// got through each door (chat completions, Anthropic messages, a passed-through path): the dialects'
// credentials, content type, accept, user agent and version/beta headers arrive as sent; the session
// cookie, cloud-metadata and forwarding headers, the Wayfinder key and hop-by-hop headers never do; and
// the client sees the upstream's content and request-id headers but no Set-Cookie or server internals.
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

const KEY = 'acme-key-headers';

interface Recorded {
  path: string;
  headers: IncomingHttpHeaders;
}

/** An upstream that records each request and answers in the shape its path asks for, with headers a client must not see. */
async function recordingUpstream(): Promise<{ url: string; requests: Recorded[]; close(): Promise<void> }> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push({ path: req.url ?? '', headers: req.headers });
      const body = req.url?.endsWith('/messages')
        ? { id: 'msg_1', type: 'message', role: 'assistant', model: 'fake', content: [{ type: 'text', text: 'fine' }], stop_reason: 'end_turn', usage: { input_tokens: 3, output_tokens: 1 } }
        : req.url?.endsWith('/models')
          ? { object: 'list', data: [{ id: 'fake', object: 'model' }] }
          : { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'fake', choices: [{ index: 0, message: { role: 'assistant', content: 'fine' }, finish_reason: 'stop' }] };
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-request-id': 'req-42',
        'x-ratelimit-remaining-requests': '99',
        'set-cookie': 'wf_session=planted; Path=/; HttpOnly',
        server: 'internal-llm/1.2',
        'x-backend-host': '10.0.0.7',
      }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Headers a hostile page, a co-located service or a confused client could put on a proxied request. */
const FORBIDDEN = {
  cookie: 'wf_session=operator-session',
  'metadata-flavor': 'Google',
  'x-forwarded-for': '10.0.0.1',
  'x-forwarded-host': 'internal.example',
  'x-forwarded-proto': 'https',
  forwarded: 'for=10.0.0.1;host=internal.example',
  'x-real-ip': '10.0.0.1',
  'proxy-authorization': 'Basic cHJveHk6c2VjcmV0',
  'x-wayfinder-key': KEY,
  'x-wayfinder-agent': 'header-agent',
  'x-amz-security-token': 'aws-session',
  te: 'trailers',
  connection: 'keep-alive, x-internal',
  'x-internal': 'hop',
};

function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the LLM proxy forwards only allow-listed headers', () => {
  let upstream: Awaited<ReturnType<typeof recordingUpstream>>;
  let running: RunningServices | undefined;
  let port: number;

  beforeAll(async () => {
    upstream = await recordingUpstream();
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${KEY}`, WAYFINDER_EGRESS_ALLOW: '127.0.0.1' });
    const base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    port = Number(new URL(base).port);
    expect((await call(base, 'PUT', '/v1/policy', { key: KEY, body: { policy: {}, proxy: { upstream: upstream.url } } })).status).toBe(200);
  });
  afterAll(async () => {
    await running?.stop();
    await upstream.close();
  });

  function expectNoForbidden(headers: IncomingHttpHeaders): void {
    for (const name of Object.keys(FORBIDDEN).filter((n) => n !== 'connection')) expect([name, headers[name]]).toEqual([name, undefined]);
    expect(headers.connection ?? '').not.toContain('x-internal');
  }

  function expectClientSeesOnlyApiHeaders(headers: IncomingHttpHeaders): void {
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-request-id']).toBe('req-42');
    expect(headers['x-ratelimit-remaining-requests']).toBe('99');
    expect(headers['set-cookie']).toBeUndefined();
    expect(headers.server).toBeUndefined();
    expect(headers['x-backend-host']).toBeUndefined();
  }

  it('chat completions: credentials and OpenAI headers pass, nothing else', async () => {
    const sent = {
      ...FORBIDDEN,
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: 'Bearer sk-upstream',
      'user-agent': 'OpenAI/JS 6.49.0',
      'openai-organization': 'org-1',
      'openai-beta': 'assistants=v2',
    };
    const answer = await send(port, 'POST', '/v1/chat/completions', sent, JSON.stringify({ model: 'fake', messages: [{ role: 'user', content: 'hi' }] }));
    expect(answer.status).toBe(200);
    const got = upstream.requests.at(-1)!; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    expect(got.path).toBe('/v1/chat/completions');
    expect(got.headers).toMatchObject({ authorization: 'Bearer sk-upstream', 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'OpenAI/JS 6.49.0', 'openai-organization': 'org-1', 'openai-beta': 'assistants=v2', 'accept-encoding': 'identity' });
    expectNoForbidden(got.headers);
    expectClientSeesOnlyApiHeaders(answer.headers);
  });

  it('Anthropic messages: x-api-key and the version and beta headers pass, nothing else', async () => {
    const sent = { ...FORBIDDEN, 'content-type': 'application/json', 'x-api-key': 'sk-ant-upstream', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'tools-2099-01-01', 'user-agent': 'claude-cli/2.0' };
    const answer = await send(port, 'POST', '/v1/messages', sent, JSON.stringify({ model: 'fake', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }));
    expect(answer.status).toBe(200);
    const got = upstream.requests.at(-1)!; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    expect(got.path).toBe('/v1/messages');
    expect(got.headers).toMatchObject({ 'x-api-key': 'sk-ant-upstream', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'tools-2099-01-01', 'user-agent': 'claude-cli/2.0' });
    expectNoForbidden(got.headers);
    expectClientSeesOnlyApiHeaders(answer.headers);
  });

  it('a passed-through path (GET /v1/models) gets the same allow-list', async () => {
    const answer = await send(port, 'GET', '/v1/models', { ...FORBIDDEN, authorization: 'Bearer sk-upstream', accept: 'application/json' });
    expect(answer.status).toBe(200);
    const got = upstream.requests.at(-1)!; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    expect(got.path).toBe('/v1/models');
    expect(got.headers.authorization).toBe('Bearer sk-upstream');
    expectNoForbidden(got.headers);
    expectClientSeesOnlyApiHeaders(answer.headers);
  });
});
