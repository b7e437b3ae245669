// Issue #29, DNS rebinding: in local mode (no keys, loopback bind) a page of attacker.example whose name
// now resolves to 127.0.0.1 reaches the gateway with `Host: rebind.attacker.example`. It must not change
// the policy (its proxy upstream would send the agents' keys and prompts away): only loopback hosts are served.
import { request } from 'node:http';
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('local mode refuses a rebinding Host', () => {
  let running: RunningServices;
  let port: number;

  beforeAll(async () => {
    running = await startWithGateway();
    port = running.gateway!.port;
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('answers 421 with an error to another Host, on reads and on the policy write, and leaves the policy alone', async () => {
    expect(running.gatewayLocalMode).toBe(true);
    const before = (await call(running.gateway!.url, 'GET', '/v1/policy')).body;
    const policy = JSON.stringify({ proxy: { upstream: 'http://attacker.example:8080' } });
    const write = await send(port, 'PUT', '/v1/policy', { host: 'rebind.attacker.example', 'content-type': 'application/json' }, policy);
    expect(write.status).toBe(421);
    expect(write.body.error).toMatch(/loopback/);
    expect((await send(port, 'GET', '/v1/policy', { host: 'rebind.attacker.example:4318' })).status).toBe(421);
    expect((await send(port, 'GET', '/v1/policy', { host: '127.0.0.1.attacker.example' })).status).toBe(421);
    expect((await call(running.gateway!.url, 'GET', '/v1/policy')).body).toEqual(before);
  });

  it('serves localhost, 127.0.0.1 and [::1], with or without a port', async () => {
    for (const host of ['localhost', `localhost:${port}`, '127.0.0.1', `127.0.0.1:${port}`, '[::1]', `[::1]:${port}`]) {
      expect({ host, status: (await send(port, 'GET', '/v1/policy', { host })).status }).toEqual({ host, status: 200 });
    }
  });
});
