// Issue #29: no `Secure` cookie flag when the gateway is bound beyond loopback, so a browser would send
// the dashboard session over plain HTTP on the network. Bound beyond loopback the cookie is `Secure`
// (served over HTTPS, a TLS proxy in front); on loopback it is not (browsers keep it for http://localhost).
import type { RunningServices } from '../runtime';
import { startWithGateway } from './gateway.testing';

const KEY = 'acme-secure-cookie-key';

async function sessionCookie(running: RunningServices): Promise<string> {
  const login = await fetch(`http://127.0.0.1:${running.gateway!.port}/login`, { method: 'POST', body: new URLSearchParams({ key: KEY }), redirect: 'manual' });
  expect(login.status).toBe(303);
  return login.headers.get('set-cookie') ?? '';
}

describe('the session cookie', () => {
  it('is Secure when the gateway is bound beyond loopback', async () => {
    const open = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${KEY}`, WAYFINDER_GATEWAY_HOST: '0.0.0.0' });
    try {
      const cookie = await sessionCookie(open);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/;\s*Secure/);
    } finally {
      await open.stop();
    }
  });

  it('is not Secure on a loopback bind', async () => {
    const local = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${KEY}` });
    try {
      expect(await sessionCookie(local)).not.toMatch(/Secure/);
    } finally {
      await local.stop();
    }
  });
});
