// A tenant cannot point the LLM proxy at the gateway's own network (SSRF, #29): a policy naming a
// loopback listener is refused with 400 naming proxy.upstream; a hostname the operator allowed by name
// but resolving to 127.0.0.1 is refused at connect time (checked on the resolved address) with 502; the
// listener receives nothing either way. The operator's own upstream (WAYFINDER_PROXY_UPSTREAM) stays allowed.
import type { RunningServices } from '../runtime';
import { startFakeLlmUpstream, type FakeLlmUpstream } from './fake-llm-upstream.testing';
import { call, startWithGateway } from './gateway.testing';

const A = 'acme-secret-key';
const chat = (base: string) =>
  fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-wayfinder-key': A, 'x-wayfinder-agent': 'scanner', authorization: 'Bearer sk-tenant' },
    body: JSON.stringify({ model: 'fake', messages: [{ role: 'user', content: 'hi' }] }),
  });

describe('a tenant policy cannot send the proxy to loopback', () => {
  let listener: FakeLlmUpstream;
  let running: RunningServices | undefined;
  beforeEach(async () => {
    listener = await startFakeLlmUpstream();
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await listener.close();
  });

  it('refuses a policy naming a loopback listener with 400 naming proxy.upstream', async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A}` });
    const base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    const put = await call(base, 'PUT', '/v1/policy', { key: A, body: { policy: {}, proxy: { upstream: listener.url } } });
    expect(put).toMatchObject({ status: 400, body: { field: 'proxy.upstream' } });
    const metadata = await call(base, 'PUT', '/v1/policy', { key: A, body: { policy: {}, proxy: { upstream: 'http://169.254.169.254/latest' } } });
    expect(metadata).toMatchObject({ status: 400, body: { field: 'proxy.upstream' } });
    expect(listener.requests).toHaveLength(0);
  });

  it('refuses at connect a hostname allowed by name that resolves to 127.0.0.1', async () => {
    const port = new URL(listener.url).port;
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A}`, WAYFINDER_EGRESS_ALLOW: 'localhost' });
    const base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    const put = await call(base, 'PUT', '/v1/policy', { key: A, body: { policy: {}, proxy: { upstream: `http://localhost:${port}/v1` } } });
    expect(put.status).toBe(200);
    const res = await chat(base);
    expect(res.status).toBe(502);
    expect(await res.text()).toMatch(/refused/);
    expect(listener.requests).toHaveLength(0);
  });

  it('still proxies to the operator allowing the address itself', async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A}`, WAYFINDER_EGRESS_ALLOW: '127.0.0.1' });
    const base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
    expect((await call(base, 'PUT', '/v1/policy', { key: A, body: { policy: {}, proxy: { upstream: listener.url } } })).status).toBe(200);
    expect((await chat(base)).status).toBe(200);
    expect(listener.requests).toHaveLength(1);
  });
});
