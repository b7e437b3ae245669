/**
 * Redis key layout. Every key starts with the tenant (`wf:{tenant}:…`): no key of one tenant can be
 * built from another tenant's ids, and the braces keep a tenant's keys in one Redis Cluster slot.
 */
export function tenantKey(tenantId: string, ...parts: string[]): string {
  return [`wf:{${encode(tenantId)}}`, ...parts.map(encode)].join(':');
}

/** Ids may contain ':' or '{': percent-encode what would break the layout. */
function encode(part: string): string {
  return part.replace(/[%:{}]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
