// Issue #29, sessions outlive keys: a dashboard session opened with a key kept operator access for up to
// 12 h after the key was revoked. The session is checked against its key on every request: once the key
// is revoked, the cookie is refused (401 on the API, the login form on the dashboard) and stays refused.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileKeyStore, keysFilePath } from '@wayfinder/file-stores';
import { generateApiKey } from '@wayfinder/tenancy';
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

describe("a revoked key's session cookie", () => {
  let running: RunningServices;
  let base: string;
  const workingDir = mkdtempSync(join(tmpdir(), 'wf-revoked-'));
  const keys = new FileKeyStore(keysFilePath(workingDir));
  const acme = generateApiKey('acme');
  const other = generateApiKey('acme');

  beforeAll(async () => {
    await keys.add(acme.record);
    await keys.add(other.record);
    running = await startWithGateway({}, {}, { workingDir });
    base = running.gateway!.url;
  });
  afterAll(async () => {
    await running?.stop();
  });

  async function logIn(key: string): Promise<string> {
    const login = await fetch(`${base}/login`, { method: 'POST', body: new URLSearchParams({ key }), redirect: 'manual' });
    expect(login.status).toBe(303);
    return (login.headers.get('set-cookie') ?? '').split(';')[0];
  }

  it('is refused at once after the key is revoked, while a session of another key of the tenant goes on', async () => {
    const cookie = await logIn(acme.key);
    const otherCookie = await logIn(other.key);
    expect((await call(base, 'GET', '/v1/policy', { headers: { cookie } })).body.tenantId).toBe('acme');
    expect((await fetch(`${base}/`, { headers: { cookie } })).status).toBe(200);

    expect(await keys.revoke('acme', acme.record.keyId)).toBe(true);

    const api = await call(base, 'GET', '/v1/policy', { headers: { cookie } });
    expect(api.status).toBe(401);
    const page = await fetch(`${base}/`, { headers: { cookie } });
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('Log in');
    expect((await call(base, 'POST', '/v1/agents/a/resume', { body: { reason: 'after revocation' }, headers: { cookie } })).status).toBe(401);
    // Still refused afterwards (the session is gone, not only refused once).
    expect((await call(base, 'GET', '/v1/policy', { headers: { cookie } })).status).toBe(401);

    expect((await call(base, 'GET', '/v1/policy', { headers: { cookie: otherCookie } })).body.tenantId).toBe('acme');
  });
});
