/**
 * Turns a bearer key into a tenant: the seeded keys (WAYFINDER_API_KEYS) are compared in constant time,
 * then the store is asked by hash and the answer checked again in constant time. Decides local mode:
 * no key anywhere and a loopback bind means one local operator who needs no key.
 */
import { timingSafeEqual } from 'node:crypto';
import { hashApiKey, keyMatchesHash, roleOf, type KeyRole, type SeedKey } from './api-keys';
import type { KeyStore } from './key-store';

export interface ResolvedTenant {
  readonly tenantId: string;
  /** The local operator (no keys configured, loopback bind): may act for any tenant. */
  readonly local: boolean;
  /** The store's key id, or `seed` for a WAYFINDER_API_KEYS key, `local` for the local operator. */
  readonly keyId: string;
  /** What the key may do: seeded keys and the local operator are operators. */
  readonly role: KeyRole;
}

export const LOCAL_TENANT = 'local';

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export class TenantAuthenticator {
  constructor(
    private readonly seeds: readonly SeedKey[],
    private readonly store: KeyStore,
    /** Local mode is possible at all (embedded mode bound to loopback). */
    private readonly loopbackEmbedded: boolean,
  ) {}

  /** The stored keys (the gateway's `/v1/keys` routes list, create and revoke there); seed keys are not in it. */
  get keyStore(): KeyStore {
    return this.store;
  }

  /** True when requests need no key right now (re-checked, so a key created later ends local mode). */
  async localMode(): Promise<boolean> {
    if (!this.loopbackEmbedded || this.seeds.length > 0) return false;
    return !(await this.store.hasActiveKeys());
  }

  /**
   * The tenant of a key known only by its hash (a dashboard session's key), or undefined once that key is
   * revoked or gone: sessions are re-checked with it on every request.
   */
  async resolveHash(hash: string): Promise<ResolvedTenant | undefined> {
    const given = Buffer.from(hash, 'hex');
    for (const seed of this.seeds) {
      const expected = Buffer.from(seed.hash, 'hex');
      if (expected.length === given.length && timingSafeEqual(expected, given)) return { tenantId: seed.tenantId, local: false, keyId: 'seed', role: 'operator' };
    }
    const record = await this.store.findByHash(hash);
    if (!record || record.revokedAt || record.hash !== hash) return undefined;
    return { tenantId: record.tenantId, local: false, keyId: record.keyId, role: roleOf(record) };
  }

  /** The tenant of a key, or undefined for an unknown or revoked key. */
  async resolve(key: string): Promise<ResolvedTenant | undefined> {
    let seeded: string | undefined;
    for (const seed of this.seeds) if (keyMatchesHash(key, seed.hash) && seeded === undefined) seeded = seed.tenantId;
    if (seeded !== undefined) return { tenantId: seeded, local: false, keyId: 'seed', role: 'operator' };
    const record = await this.store.findByHash(hashApiKey(key));
    if (!record || record.revokedAt || !keyMatchesHash(key, record.hash)) return undefined;
    return { tenantId: record.tenantId, local: false, keyId: record.keyId, role: roleOf(record) };
  }
}
