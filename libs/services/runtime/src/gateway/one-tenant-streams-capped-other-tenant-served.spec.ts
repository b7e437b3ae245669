// One tenant cannot hold every connection: correction streams (SSE and waiting long-polls of
// GET /v1/agents/:id/corrections) are capped per tenant (WAYFINDER_MAX_STREAMS_PER_TENANT) and in all
// (WAYFINDER_MAX_STREAMS). Past a cap → 429 with Retry-After and the {error} body; another tenant is still
// served; closing a stream gives its slot back.
import type { RunningServices } from '../runtime';
import { call, eventually, readSse, startWithGateway } from './gateway.testing';

const A = 'acme-streams-key';
const B = 'globex-streams-key';
const C = 'initech-streams-key';
const SSE = { accept: 'text/event-stream' };

describe('one tenant’s streams are capped, another tenant is served', () => {
  let running: RunningServices;
  let base: string;
  const open: Array<{ close(): void }> = [];

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A},globex:${B},initech:${C}`, WAYFINDER_MAX_STREAMS_PER_TENANT: '3', WAYFINDER_MAX_STREAMS: '5' });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    await running?.stop();
  });

  function sse(key: string, agent: string) {
    const stream = readSse(`${base}/v1/agents/${agent}/corrections`, { authorization: `Bearer ${key}` });
    open.push(stream);
    return stream;
  }

  it('answers 429 with Retry-After past the tenant’s cap, serves another tenant, and frees a slot on close', async () => {
    const mine = [sse(A, 'a1'), sse(A, 'a2'), sse(A, 'a3')];
    for (const stream of mine) expect(await stream.status).toBe(200);

    const refused = await call(base, 'GET', '/v1/agents/a4/corrections', { key: A, headers: SSE });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Object.keys(refused.body)).toEqual(['error']);
    expect(refused.body.error).toMatch(/streams/);
    // A waiting long-poll holds a connection too: refused alike; an immediate read is not a stream.
    expect((await call(base, 'GET', '/v1/agents/a4/corrections?wait=5', { key: A })).status).toBe(429);
    expect(await call(base, 'GET', '/v1/agents/a4/corrections', { key: A })).toMatchObject({ status: 200, body: { corrections: [] } });

    // The other tenant is served: its stream and its long-poll.
    expect(await sse(B, 'b1').status).toBe(200);
    expect(await call(base, 'GET', '/v1/agents/b2/corrections?wait=0.2', { key: B })).toMatchObject({ status: 200, body: { corrections: [] } });

    // Closing one of A's streams lets A open another.
    mine[0].close();
    await eventually(async () => (await call(base, 'GET', '/v1/agents/a5/corrections?wait=0.05', { key: A })).status === 200, 5_000, 'a freed slot');
    expect(await sse(A, 'a6').status).toBe(200);
  });

  it('caps the streams of every tenant together', async () => {
    // Open now: A 3, B 1 → one more in all.
    expect(await sse(B, 'b3').status).toBe(200);
    const refused = await call(base, 'GET', '/v1/agents/c1/corrections', { key: C, headers: SSE });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(refused.body.error).toMatch(/gateway/);
  });
});
