/**
 * KeyStore on Redis (distributed mode): a tenant's key records in one hash under the tenant
 * (`wf:{tenant}:api-keys:<ns>`), plus a lookup from a key's SHA-256 to its record. The lookup cannot live
 * under the tenant (the tenant is what it finds), so it is the one key layout outside `wf:{tenant}`:
 * `wf:{auth}:<ns>:key:<sha256>`, and the set of active hashes `wf:{auth}:<ns>:active`.
 */
import type { Redis } from 'ioredis';
import type { ApiKeyRecord, KeyStore } from '@wayfinder/tenancy';
import { tenantKey } from './keys';

export interface RedisKeyStoreOptions {
  /** Separates deployments sharing one Redis (the topic prefix). */
  namespace?: string;
}

export class RedisKeyStore implements KeyStore {
  private readonly namespace: string;

  constructor(
    private readonly redis: Redis,
    options: RedisKeyStoreOptions = {},
  ) {
    this.namespace = options.namespace ?? '';
  }

  private recordsKey(tenantId: string): string {
    return tenantKey(tenantId, 'api-keys', this.namespace);
  }

  private hashKey(hash: string): string {
    return `wf:{auth}:${encodeURIComponent(this.namespace)}:key:${hash}`;
  }

  private activeKey(): string {
    return `wf:{auth}:${encodeURIComponent(this.namespace)}:active`;
  }

  async add(record: ApiKeyRecord): Promise<void> {
    await this.redis
      .multi()
      .hset(this.recordsKey(record.tenantId), record.keyId, JSON.stringify(record))
      .set(this.hashKey(record.hash), JSON.stringify({ tenantId: record.tenantId, keyId: record.keyId }))
      .sadd(this.activeKey(), record.hash)
      .exec();
  }

  async list(tenantId: string): Promise<ApiKeyRecord[]> {
    const all = await this.redis.hvals(this.recordsKey(tenantId));
    return all
      .map((json) => JSON.parse(json) as ApiKeyRecord)
      .filter((r) => r.tenantId === tenantId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.keyId.localeCompare(b.keyId));
  }

  async revoke(tenantId: string, keyId: string, at: Date = new Date()): Promise<boolean> {
    const json = await this.redis.hget(this.recordsKey(tenantId), keyId);
    if (!json) return false;
    const record = JSON.parse(json) as ApiKeyRecord;
    if (record.tenantId !== tenantId) return false;
    const revoked: ApiKeyRecord = { ...record, revokedAt: record.revokedAt ?? at.toISOString() };
    await this.redis
      .multi()
      .hset(this.recordsKey(tenantId), keyId, JSON.stringify(revoked))
      .del(this.hashKey(record.hash))
      .srem(this.activeKey(), record.hash)
      .exec();
    return true;
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const pointer = await this.redis.get(this.hashKey(hash));
    if (!pointer) return undefined;
    const { tenantId, keyId } = JSON.parse(pointer) as { tenantId: string; keyId: string };
    const json = await this.redis.hget(this.recordsKey(tenantId), keyId);
    if (!json) return undefined;
    const record = JSON.parse(json) as ApiKeyRecord;
    return record.revokedAt || record.hash !== hash ? undefined : record;
  }

  async hasActiveKeys(): Promise<boolean> {
    return (await this.redis.scard(this.activeKey())) > 0;
  }
}
