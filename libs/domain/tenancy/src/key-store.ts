/**
 * The KeyStore port: where hashed API keys live (Redis in distributed mode, `.wayfinder/keys.json` in
 * embedded mode). Every adapter passes `keyStoreContract` (testing.ts).
 */
import type { ApiKeyRecord } from './api-keys';

export interface KeyStore {
  /** Stores a new key record (its keyId is new). */
  add(record: ApiKeyRecord): Promise<void>;
  /** The tenant's keys, active and revoked, oldest first. */
  list(tenantId: string): Promise<ApiKeyRecord[]>;
  /** Revokes a key of this tenant; false when the tenant has no such key. Revoked keys stop at once. */
  revoke(tenantId: string, keyId: string, at?: Date): Promise<boolean>;
  /** The active key with this hash, if any (revoked keys are not found). */
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /** Whether any tenant has an active key (decides local mode). */
  hasActiveKeys(): Promise<boolean>;
}

/** The port's behaviour in memory: unit tests and the reference for the adapters. */
export class InMemoryKeyStore implements KeyStore {
  private readonly records: ApiKeyRecord[] = [];

  async add(record: ApiKeyRecord): Promise<void> {
    this.records.push({ ...record });
  }

  async list(tenantId: string): Promise<ApiKeyRecord[]> {
    return this.records.filter((r) => r.tenantId === tenantId).map((r) => ({ ...r }));
  }

  async revoke(tenantId: string, keyId: string, at: Date = new Date()): Promise<boolean> {
    const index = this.records.findIndex((r) => r.tenantId === tenantId && r.keyId === keyId);
    if (index < 0) return false;
    if (!this.records[index].revokedAt) this.records[index] = { ...this.records[index], revokedAt: at.toISOString() };
    return true;
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const found = this.records.find((r) => r.hash === hash && !r.revokedAt);
    return found && { ...found };
  }

  async hasActiveKeys(): Promise<boolean> {
    return this.records.some((r) => !r.revokedAt);
  }
}
