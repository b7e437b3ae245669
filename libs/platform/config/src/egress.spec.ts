// Operator-owned egress: the allow-list match, the private-address rule, and the connect-time lookup
// that checks the resolved address (a name allowed in the list that resolves to 127.0.0.1 is refused).
import { createServer, request, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { egressAllowed, egressFromEnv, egressLookup, egressRefusal, isPrivateAddress } from './egress';

describe('egress rule', () => {
  it('classifies loopback, link-local, private and unspecified addresses', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '100.64.0.1']) {
      expect(isPrivateAddress(a)).toBe(true);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700::1111']) expect(isPrivateAddress(a)).toBe(false);
  });

  it('reads the allow-list and implicitly allows the proxy upstream', () => {
    const policy = egressFromEnv({ WAYFINDER_EGRESS_ALLOW: 'hooks.example.com, https://api.example.org/v1', WAYFINDER_PROXY_UPSTREAM: 'https://llm.example.net/v1' });
    expect(policy.allowPrivate).toBe(false);
    expect(egressAllowed(policy, 'https://hooks.example.com/any/path')).toBe(true);
    expect(egressAllowed(policy, 'https://api.example.org/v1/chat/completions')).toBe(true);
    expect(egressAllowed(policy, 'https://api.example.org/v2')).toBe(false);
    expect(egressAllowed(policy, 'http://api.example.org/v1')).toBe(false);
    expect(egressAllowed(policy, 'https://llm.example.net/v1')).toBe(true);
    expect(egressAllowed(policy, 'http://127.0.0.1:8080/')).toBe(false);
    expect(egressAllowed(policy, 'file:///etc/passwd')).toBe(false);
    expect(egressFromEnv({ WAYFINDER_EGRESS_ALLOW_PRIVATE: '1' }).allowPrivate).toBe(true);
  });

  it('refuses a private address literal unless the operator wrote it or allows private egress', () => {
    expect(egressRefusal({ allow: ['127.0.0.1'], allowPrivate: false }, 'http://127.0.0.1:9/')).toBeUndefined();
    expect(egressRefusal({ allow: ['http://127.0.0.1:9'], allowPrivate: false }, 'http://127.0.0.1:9/x')).toBeUndefined();
    expect(egressRefusal({ allow: ['localhost'], allowPrivate: false }, 'http://127.0.0.1:9/')).toMatch(/allow-list/);
    expect(egressRefusal({ allow: ['http://[::1]:9'], allowPrivate: false }, 'http://[::1]:9/')).toBeUndefined();
  });
});

describe('egress lookup at connect time', () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits += 1;
      res.end('secret');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (lookup: ReturnType<typeof egressLookup>) =>
    new Promise<number>((resolve, reject) => {
      const agent = new Agent({ lookup } as never);
      const req = request({ host: 'localhost', port, path: '/', family: 4, agent }, (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      });
      req.once('error', (error) => {
        agent.destroy();
        reject(error);
      });
      req.end();
    });

  it('refuses a name allowed in the list that resolves to 127.0.0.1; the listener receives nothing', async () => {
    const before = hits;
    await expect(get(egressLookup({ allow: ['localhost'], allowPrivate: false }))).rejects.toThrow(/refused/);
    expect(hits).toBe(before);
  });

  it('connects when the operator allows private egress or wrote the address', async () => {
    await expect(get(egressLookup({ allow: ['localhost'], allowPrivate: true }))).resolves.toBe(200);
    await expect(get(egressLookup({ allow: ['127.0.0.1'], allowPrivate: false }))).resolves.toBe(200);
  });
});
