// The tenant's API keys on the gateway (GET/POST /v1/keys, DELETE /v1/keys/:keyId) and the dashboard's
// /keys page: an operator key lists, creates and revokes its own tenant's keys; a viewer key is refused on
// all three (reads included) naming `role`; another tenant's keys are neither listed nor revocable (404),
// naming another tenant is a 403; a revoked key stops at once.
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

const ACME = 'acme-keys-operator';
const GLOBEX = 'globex-keys-operator';

describe('the keys routes: operators of the key’s tenant only', () => {
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${ACME},globex:${GLOBEX}` });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('creates a key shown once, lists it without its hash, and a revoked key stops at once', async () => {
    expect(await call(base, 'GET', '/v1/keys', { key: ACME })).toMatchObject({ status: 200, body: { keys: [] } });
    const created = await call(base, 'POST', '/v1/keys', { key: ACME, body: { role: 'viewer' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tenantId: 'acme', role: 'viewer', revokedAt: null });
    expect(created.body.key).toMatch(/^wf_acme_/);
    const viewerKey = created.body.key as string;
    const keyId = created.body.keyId as string;

    const listed = await call(base, 'GET', '/v1/keys', { key: ACME });
    expect(listed.body.keys).toEqual([{ keyId, tenantId: 'acme', role: 'viewer', createdAt: created.body.createdAt, revokedAt: null }]);
    expect(JSON.stringify(listed.body)).not.toContain(viewerKey);

    // The new key reads its tenant, and nothing of the keys.
    expect((await call(base, 'GET', '/v1/fleet', { key: viewerKey })).status).toBe(200);
    for (const [method, path] of [['GET', '/v1/keys'], ['POST', '/v1/keys'], ['DELETE', `/v1/keys/${keyId}`]]) {
      const refused = await call(base, method, path, { key: viewerKey, ...(method === 'POST' && { body: {} }) });
      expect({ method, status: refused.status, field: refused.body.field }).toEqual({ method, status: 403, field: 'role' });
    }

    expect(await call(base, 'DELETE', `/v1/keys/${keyId}`, { key: ACME })).toMatchObject({ status: 200, body: { revoked: true, keyId } });
    expect((await call(base, 'GET', '/v1/fleet', { key: viewerKey })).status).toBe(401);
    expect((await call(base, 'GET', '/v1/keys', { key: ACME })).body.keys[0].revokedAt).toEqual(expect.any(String));
  });

  it('never shows or revokes another tenant’s keys', async () => {
    const acmeKey = await call(base, 'POST', '/v1/keys', { key: ACME, body: { role: 'operator' } });
    expect(acmeKey.status).toBe(201);
    const globexList = await call(base, 'GET', '/v1/keys', { key: GLOBEX });
    expect(globexList.status).toBe(200);
    expect(globexList.body.keys.map((k: { tenantId: string }) => k.tenantId)).not.toContain('acme');

    expect(await call(base, 'DELETE', `/v1/keys/${acmeKey.body.keyId}`, { key: GLOBEX })).toMatchObject({ status: 404 });
    expect((await call(base, 'GET', '/v1/keys', { key: acmeKey.body.key })).status).toBe(200);
    expect(await call(base, 'GET', '/v1/keys?tenantId=acme', { key: GLOBEX })).toMatchObject({ status: 403, body: { field: 'tenantId' } });
    expect(await call(base, 'POST', '/v1/keys?tenantId=acme', { key: GLOBEX, body: {} })).toMatchObject({ status: 403, body: { field: 'tenantId' } });
  });

  it('names the bad field of a create or a revoke, and wants a key', async () => {
    expect(await call(base, 'POST', '/v1/keys', { key: ACME, body: { role: 'admin' } })).toMatchObject({ status: 400, body: { field: 'role' } });
    expect(await call(base, 'POST', '/v1/keys', { key: ACME, body: { tenantId: 'globex' } })).toMatchObject({ status: 400, body: { field: 'tenantId' } });
    expect(await call(base, 'DELETE', '/v1/keys/not-a-key-id', { key: ACME })).toMatchObject({ status: 400, body: { field: 'keyId' } });
    expect(await call(base, 'DELETE', '/v1/keys/key_0123abcd', { key: ACME })).toMatchObject({ status: 404 });
    expect((await call(base, 'GET', '/v1/keys')).status).toBe(401);
  });

  it('serves the /keys page to operators, a 403 page to viewers and the login form without a key', async () => {
    const page = await fetch(`${base}/keys`, { headers: { authorization: `Bearer ${ACME}` } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('API keys of acme');
    expect(html).toContain('/dashboard/assets/keys.js');
    const viewer = (await call(base, 'POST', '/v1/keys', { key: ACME, body: { role: 'viewer' } })).body.key as string;
    const refused = await fetch(`${base}/keys`, { headers: { authorization: `Bearer ${viewer}` } });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('viewer role');
    expect((await fetch(`${base}/keys`)).status).toBe(401);
    expect((await fetch(`${base}/dashboard/assets/keys.js`)).status).toBe(200);
  });
});
