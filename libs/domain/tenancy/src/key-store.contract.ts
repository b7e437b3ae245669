/**
 * The KeyStore contract: every adapter (in memory, Redis, file) passes it. `make` returns an empty store
 * of its own (a fresh namespace or folder).
 */
import { generateApiKey, hashApiKey } from './api-keys';
import type { KeyStore } from './key-store';

export function keyStoreContract(make: () => Promise<KeyStore> | KeyStore): void {
  describe('KeyStore contract', () => {
    it('finds an added key by its hash and lists it under its tenant only', async () => {
      const store = await make();
      expect(await store.hasActiveKeys()).toBe(false);
      const a = generateApiKey('acme');
      const b = generateApiKey('globex');
      await store.add(a.record);
      await store.add(b.record);
      expect(await store.hasActiveKeys()).toBe(true);
      expect((await store.findByHash(hashApiKey(a.key)))?.tenantId).toBe('acme');
      expect((await store.findByHash(hashApiKey(b.key)))?.tenantId).toBe('globex');
      expect(await store.findByHash(hashApiKey('wf_acme_not-a-key'))).toBeUndefined();
      expect((await store.list('acme')).map((r) => r.keyId)).toEqual([a.record.keyId]);
      expect((await store.list('globex')).map((r) => r.keyId)).toEqual([b.record.keyId]);
      expect(await store.list('initech')).toEqual([]);
    });

    it('never holds the key itself', async () => {
      const store = await make();
      const a = generateApiKey('acme');
      await store.add(a.record);
      expect(JSON.stringify(await store.list('acme'))).not.toContain(a.key);
    });

    it('revokes a key of the tenant at once; another tenant cannot revoke it', async () => {
      const store = await make();
      const a = generateApiKey('acme');
      const a2 = generateApiKey('acme');
      await store.add(a.record);
      await store.add(a2.record);
      expect(await store.revoke('globex', a.record.keyId)).toBe(false);
      expect((await store.findByHash(a.record.hash))?.keyId).toBe(a.record.keyId);
      expect(await store.revoke('acme', a.record.keyId)).toBe(true);
      expect(await store.findByHash(a.record.hash)).toBeUndefined();
      expect((await store.findByHash(a2.record.hash))?.keyId).toBe(a2.record.keyId);
      const listed = await store.list('acme');
      const revoked = (keyId: string) => Boolean(listed.find((r) => r.keyId === keyId)?.revokedAt);
      expect(listed.length).toBe(2);
      expect([revoked(a.record.keyId), revoked(a2.record.keyId)]).toEqual([true, false]);
      expect(await store.revoke('acme', 'key_unknown')).toBe(false);
      await store.revoke('acme', a2.record.keyId);
      expect(await store.hasActiveKeys()).toBe(false);
    });
  });
}
