// `PATCH /v1/policy` (issue #31): a JSON merge patch (RFC 7396) of the key's tenant's policy. It changes the
// fields it names and keeps every other one, the write-only webhook secrets included (the placeholder it
// patches over is restored while the URL stays); null deletes; it is checked like a PUT, so a bad value is
// 400 naming the field and changes nothing; another tenant's policy is untouched; a viewer key is refused.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECRET_SET, type TenantPolicy } from '@wayfinder/contracts';
import { FileKeyStore, keysFilePath } from '@wayfinder/file-stores';
import { generateApiKey } from '@wayfinder/tenancy';
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

const SECRET = 'hdr-s3cret-value';
const WEBHOOK = { url: 'https://hooks.example.com/wayfinder', format: 'generic', secretHeader: { name: 'X-Wayfinder-Secret', value: SECRET } };
const MERGE_PATCH = 'application/merge-patch+json';

describe('PATCH /v1/policy changes only the fields it names', () => {
  let running: RunningServices;
  let base: string;
  let acme: string;
  let viewer: string;
  let globex: string;
  let initech: string;

  beforeAll(async () => {
    const workingDir = mkdtempSync(join(tmpdir(), 'wf-patch-'));
    const store = new FileKeyStore(keysFilePath(workingDir));
    const keys = [generateApiKey('acme'), generateApiKey('acme', new Date(), undefined, 'viewer'), generateApiKey('globex'), generateApiKey('initech')];
    for (const k of keys) await store.add(k.record);
    [acme, viewer, globex, initech] = keys.map((k) => k.key);
    running = await startWithGateway({ WAYFINDER_EGRESS_ALLOW: 'hooks.example.com,other.example.com' }, {}, { workingDir });
    base = running.gateway?.url ?? '';
    const put = await call(base, 'PUT', '/v1/policy', { key: acme, body: { policy: { loop: { warning: 7, critical: 12 } }, shadow: true, webhook: WEBHOOK } });
    expect(put.status).toBe(200);
    expect((await call(base, 'PUT', '/v1/policy', { key: globex, body: { policy: { loop: { warning: 4 } }, falsePositiveSuppressMs: 60_000 } })).status).toBe(200);
  });
  afterAll(async () => {
    await running?.stop();
  });

  const stored = (tenant: string): TenantPolicy | undefined => running.policyBook.documentOf(tenant);
  const patch = (key: string, body: unknown, contentType = MERGE_PATCH) => call(base, 'PATCH', '/v1/policy', { key, body, contentType });

  it('changes the named threshold and keeps the others, shadow mode and the webhook secret', async () => {
    const before = stored('acme');
    const globexBefore = stored('globex');
    const answer = await patch(acme, { policy: { loop: { warning: 5 } } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ tenantId: 'acme', policy: { loop: { warning: 5, critical: 12 } }, shadow: true, webhook: { url: WEBHOOK.url, secretHeader: { value: SECRET_SET } } });
    expect(JSON.stringify(answer.body)).not.toContain(SECRET);
    const after = stored('acme');
    expect(after?.eventId).not.toBe(before?.eventId);
    expect(after?.webhook?.secretHeader?.value).toBe(SECRET);
    expect(after).toMatchObject({ policy: { loop: { warning: 5, critical: 12 } }, shadow: true, webhook: WEBHOOK });
    expect(running.policyBook.policyOf('acme', 'any', 'a1').loop.warning).toBe(5);
    expect(stored('globex')).toEqual(globexBefore);
  });

  it('takes application/json as well, and null deletes a field', async () => {
    const answer = await patch(acme, { shadow: null }, 'application/json');
    expect(answer.status).toBe(200);
    expect(stored('acme')?.shadow).toBeUndefined();
    expect(stored('acme')?.policy).toEqual({ loop: { warning: 5, critical: 12 } });
    expect(stored('acme')?.webhook?.secretHeader?.value).toBe(SECRET);
  });

  it.each([
    ['a value the contract refuses', { policy: { loop: { warning: 0 } } }, 'policy.loop.warning'],
    ['thresholds that contradict the rest of the policy', { policy: { loop: { warning: 50 } } }, 'policy'],
    ['an unknown field', { policy: { sleepy: true } }, 'policy.sleepy'],
    ['a webhook moved without its secret', { webhook: { url: 'https://other.example.com/hook' } }, 'webhook.secretHeader.value'],
    ['an upstream outside the allow-list', { proxy: { upstream: 'http://127.0.0.1:9/v1' } }, 'proxy.upstream'],
  ])('refuses %s with 400 naming the field and changes nothing', async (_what, body, field) => {
    const before = stored('acme');
    const answer = await patch(acme, body);
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe(field);
    expect(answer.body.error).toContain(field);
    expect(stored('acme')).toEqual(before);
  });

  it('refuses a viewer key, a body that is not an object and a content type it does not parse', async () => {
    const before = stored('acme');
    expect(await patch(viewer, { policy: { loop: { warning: 6 } } })).toMatchObject({ status: 403, body: { field: 'role' } });
    expect(await patch(acme, [{ op: 'replace', path: '/shadow', value: true }])).toMatchObject({ status: 400, body: { field: '(root)' } });
    expect(await patch(acme, { shadow: true }, 'application/json-patch+json')).toMatchObject({ status: 415, body: { field: 'Content-Type' } });
    expect(await patch(acme, { tenantId: 'globex', shadow: true })).toMatchObject({ status: 403, body: { field: 'tenantId' } });
    expect(stored('acme')).toEqual(before);
    expect(stored('globex')?.shadow).toBeUndefined();
  });

  it('patches the empty policy of a tenant that set none', async () => {
    expect(stored('initech')).toBeUndefined();
    const answer = await patch(initech, { shadow: true });
    expect(answer.status).toBe(200);
    expect(stored('initech')).toMatchObject({ tenantId: 'initech', policy: {}, shadow: true });
  });

  it('checks a patch without storing it (POST /v1/policy/check): ok, or the bad field named; a viewer may not', async () => {
    const before = stored('globex');
    const bad = await call(base, 'POST', '/v1/policy/check', { key: globex, body: { policy: { loop: { warning: -3 } } } });
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ ok: false, field: 'policy.loop.warning' });
    expect(bad.body.error).toContain('policy.loop.warning');
    const good = await call(base, 'POST', '/v1/policy/check', { key: globex, body: { policy: { loop: { warning: 6 } } } });
    expect(good).toMatchObject({ status: 200, body: { ok: true } });
    expect(stored('globex')).toBe(before);
    expect((await call(base, 'POST', '/v1/policy/check', { key: globex, body: { tenantId: 'acme', policy: {} } })).status).toBe(403);
    expect((await call(base, 'POST', '/v1/policy/check', { key: viewer, body: { policy: {} } })).status).toBe(403);
  });
});
