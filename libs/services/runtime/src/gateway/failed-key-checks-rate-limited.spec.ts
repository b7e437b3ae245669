// Issue #29: 500 wrong keys in 4 s never met a 429. Failed key checks (bearer, the proxy's key header,
// the dashboard's login form) count per client address: the 10th failure in a minute blocks that
// address's key checks (429 + Retry-After, a valid key included) with a penalty that doubles; other
// addresses are served meanwhile.
import { request } from 'node:http';
import { FailedKeyLimiter } from '@wayfinder/service-gateway';
import type { RunningServices } from '../runtime';
import { startWithGateway } from './gateway.testing';

const KEY = 'wf_acme_rate_limit_key_0123456789';

function send(port: number, from: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', localAddress: from, port, method, path, headers: { ...headers, ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('failed key checks', () => {
  let running: RunningServices;
  let port: number;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${KEY}` });
    port = running.gateway!.port;
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('are answered 429 with Retry-After from the 10th wrong bearer key of an address, a valid key included; another address is served', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await send(port, '127.0.0.1', 'GET', '/v1/policy', { authorization: `Bearer wrong-${i}` })).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    const valid = await send(port, '127.0.0.1', 'GET', '/v1/policy', { authorization: `Bearer ${KEY}` });
    expect(valid.status).toBe(429);
    expect(Number(valid.retryAfter)).toBeGreaterThan(0);
    expect((await send(port, '127.0.0.2', 'GET', '/v1/policy', { authorization: `Bearer ${KEY}` })).status).toBe(200);
  });

  it("count the dashboard login form's wrong keys too", async () => {
    const form = (key: string) => send(port, '127.0.0.3', 'POST', '/login', { 'content-type': 'application/x-www-form-urlencoded' }, new URLSearchParams({ key }).toString());
    for (let i = 0; i < 10; i++) expect((await form(`wrong-${i}`)).status).toBe(401);
    const blocked = await form(KEY);
    expect(blocked.status).toBe(429);
    expect(blocked.retryAfter).toBeDefined();
  });

  it('back off: each new block of an address lasts twice as long, and a block ends', () => {
    let now = 0;
    const limiter = new FailedKeyLimiter({ now: () => now });
    const fail10 = () => {
      for (let i = 0; i < 10; i++) limiter.fail('a');
    };
    fail10();
    expect(() => limiter.assertAllowed('a')).toThrow(expect.objectContaining({ retryAfterSeconds: 60 }));
    expect(() => limiter.assertAllowed('b')).not.toThrow();
    now += 60_000;
    expect(() => limiter.assertAllowed('a')).not.toThrow();
    fail10();
    expect(() => limiter.assertAllowed('a')).toThrow(expect.objectContaining({ retryAfterSeconds: 120 }));
    // Failures spread beyond the minute do not block.
    const slow = new FailedKeyLimiter({ now: () => now });
    for (let i = 0; i < 30; i++) {
      now += 7_000;
      slow.fail('c');
      expect(() => slow.assertAllowed('c')).not.toThrow();
    }
  });
});
