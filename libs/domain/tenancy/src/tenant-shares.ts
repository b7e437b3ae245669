/**
 * A process-wide cache split into per-tenant shares (issue #29): each tenant may hold at most `perTenant`
 * entries (past it, that tenant's own least recently written entry goes), and all tenants together at most
 * `total` (past it, the least recently written entry of the tenant holding the most goes). So one tenant
 * filling the cache evicts only its own entries, never another tenant's. Insertion order is recency:
 * `set` re-inserts a key as the most recent; `get` does not change the order.
 */
export interface TenantSharesLimits {
  /** Entries one tenant may hold. */
  readonly perTenant: number;
  /** Entries all tenants may hold together. */
  readonly total: number;
}

export class TenantShares<V> {
  private readonly tenants = new Map<string, Map<string, V>>();
  private count = 0;

  constructor(private readonly limits: TenantSharesLimits) {
    if (!(limits.perTenant >= 1) || !(limits.total >= 1)) throw new Error('TenantShares limits must be at least 1');
  }

  /** Entries held, all tenants together. */
  get size(): number {
    return this.count;
  }

  /** Entries held by one tenant. */
  sizeOf(tenantId: string): number {
    return this.tenants.get(tenantId)?.size ?? 0;
  }

  get(tenantId: string, key: string): V | undefined {
    return this.tenants.get(tenantId)?.get(key);
  }

  has(tenantId: string, key: string): boolean {
    return this.tenants.get(tenantId)?.has(key) ?? false;
  }

  /** Stores the entry as the tenant's most recent, then evicts past the tenant's share and the global bound. */
  set(tenantId: string, key: string, value: V): void {
    let share = this.tenants.get(tenantId);
    if (!share) {
      share = new Map();
      this.tenants.set(tenantId, share);
    }
    if (share.delete(key)) this.count--;
    share.set(key, value);
    this.count++;
    while (share.size > this.limits.perTenant) this.evictOldest(tenantId, share);
    while (this.count > this.limits.total) {
      const [largestId, largest] = this.largest();
      this.evictOldest(largestId, largest);
    }
  }

  delete(tenantId: string, key: string): boolean {
    const share = this.tenants.get(tenantId);
    if (!share?.delete(key)) return false;
    this.count--;
    if (share.size === 0) this.tenants.delete(tenantId);
    return true;
  }

  private evictOldest(tenantId: string, share: Map<string, V>): void {
    share.delete(share.keys().next().value as string);
    this.count--;
    if (share.size === 0) this.tenants.delete(tenantId);
  }

  private largest(): [string, Map<string, V>] {
    let best: [string, Map<string, V>] | undefined;
    for (const entry of this.tenants) if (!best || entry[1].size > best[1].size) best = entry;
    return best as [string, Map<string, V>];
  }
}

/** The tenant of a cache key written `<tenantId>\u0000<rest>` (the whole key when it has no separator). */
export function tenantOfKey(key: string): string {
  const at = key.indexOf('\u0000');
  return at < 0 ? key : key.slice(0, at);
}
