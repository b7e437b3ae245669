// Issue #29: no TLS on the gateway when it is bound beyond loopback. With a certificate and key
// (WAYFINDER_GATEWAY_TLS_CERT / _KEY, or --tls-cert / --tls-key) the gateway serves HTTPS, and the
// dashboard session cookie is Secure; plain HTTP on the same port gets no answer from the API.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '@wayfinder/config';
import { startWithGateway } from './gateway.testing';

const KEY = 'acme-tls-key';

/** A self-signed certificate for 127.0.0.1, made by openssl for this run. */
function selfSigned(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  return { cert, key };
}

function httpsPost(port: number, path: string, body: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', rejectUnauthorized: false, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the gateway with TLS files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wayfinder-tls-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves HTTPS, names an https URL and sets a Secure session cookie on loopback too', async () => {
    const { cert, key } = selfSigned(dir);
    const running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${KEY}`, WAYFINDER_GATEWAY_TLS_CERT: cert, WAYFINDER_GATEWAY_TLS_KEY: key });
    try {
      expect(running.gateway!.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const login = await httpsPost(running.gateway!.port, '/login', new URLSearchParams({ key: KEY }).toString());
      expect(login.status).toBe(303);
      expect(String(login.headers['set-cookie'])).toMatch(/;\s*Secure/);
      // Plain HTTP to the TLS port is not served as the API.
      const plain = await fetch(`http://127.0.0.1:${running.gateway!.port}/v1/policy`, { headers: { authorization: `Bearer ${KEY}` } }).then(
        (res) => res.status,
        () => 'refused',
      );
      expect(plain).not.toBe(200);
    } finally {
      await running.stop();
    }
  });

  it('refuses a certificate without its key, naming both settings', () => {
    expect(() => loadConfig({ WAYFINDER_GATEWAY_TLS_CERT: join(dir, 'cert.pem') })).toThrow(ConfigError);
    expect(() => loadConfig({ WAYFINDER_GATEWAY_TLS_CERT: join(dir, 'cert.pem') })).toThrow(/WAYFINDER_GATEWAY_TLS_CERT.*WAYFINDER_GATEWAY_TLS_KEY.*set both or neither/);
  });
});
