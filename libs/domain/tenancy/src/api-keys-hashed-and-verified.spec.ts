// Keys are generated readable by tenant, stored only as SHA-256, and verified against the hash; the
// authenticator maps a key to its tenant, refuses revoked and unknown keys, and decides local mode.
import { InMemoryKeyStore } from './key-store';
import { generateApiKey, hashApiKey, keyMatchesHash, parseApiKeysVariable, tenantSlug } from './api-keys';
import { TenantAuthenticator } from './authenticator';

describe('API keys', () => {
  it('are wf_<tenant slug>_<random>, different every time, and hashed with SHA-256', () => {
    const a = generateApiKey('Acme.Corp!');
    const b = generateApiKey('Acme.Corp!');
    expect(a.key).toMatch(/^wf_acmecorp_[A-Za-z0-9_-]{32}$/);
    expect(a.key).not.toBe(b.key);
    expect(a.record.hash).toBe(hashApiKey(a.key));
    expect(a.record.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(a.record)).not.toContain(a.key);
    expect(keyMatchesHash(a.key, a.record.hash)).toBe(true);
    expect(keyMatchesHash(b.key, a.record.hash)).toBe(false);
    expect(keyMatchesHash(a.key, 'abcd')).toBe(false);
    expect(tenantSlug('---')).toBe('tenant');
  });

  it('refuse an empty tenant', () => {
    expect(() => generateApiKey('')).toThrow('the tenant must not be empty');
  });

  it('resolve to their tenant; revoked and unknown keys resolve to nothing', async () => {
    const store = new InMemoryKeyStore();
    const a = generateApiKey('acme');
    await store.add(a.record);
    const seeds = parseApiKeysVariable('ci:ci-secret-1');
    if (!seeds.ok) throw new Error(seeds.error);
    const auth = new TenantAuthenticator(seeds.value, store, true);
    expect(await auth.resolve(a.key)).toEqual({ tenantId: 'acme', local: false, keyId: a.record.keyId, role: 'operator' });
    expect(await auth.resolve('ci-secret-1')).toEqual({ tenantId: 'ci', local: false, keyId: 'seed', role: 'operator' });
    expect(await auth.resolve('wf_acme_guess')).toBeUndefined();
    await store.revoke('acme', a.record.keyId);
    expect(await auth.resolve(a.key)).toBeUndefined();
  });

  it('local mode only with no key anywhere and a loopback embedded bind', async () => {
    const store = new InMemoryKeyStore();
    expect(await new TenantAuthenticator([], store, true).localMode()).toBe(true);
    expect(await new TenantAuthenticator([], store, false).localMode()).toBe(false);
    const seeds = parseApiKeysVariable('ci:ci-secret-1');
    expect(await new TenantAuthenticator(seeds.ok ? seeds.value : [], store, true).localMode()).toBe(false);
    const local = new TenantAuthenticator([], store, true);
    await store.add(generateApiKey('acme').record);
    expect(await local.localMode()).toBe(false);
  });
});
