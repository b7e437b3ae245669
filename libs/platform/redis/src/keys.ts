/**
 * Redis key layout. Every key starts with the tenant (`wf:{tenant}:…`): no key of one tenant can be
 * built from another tenant's ids, and the braces keep a tenant's keys in one Redis Cluster slot.
 */
export function tenantKey(tenantId: string, ...parts: string[]): string {
  let key = `wf:{${encodeKeyPart(tenantId)}}`;
  for (const part of parts) key += `:${encodeKeyPart(part)}`;
  return key;
}

const SEPARATORS = /[%:{}]/;

/**
 * Ids may contain ':' or '{': percent-encode what would break the layout. Most ids contain none of them,
 * so they are returned as they are after one test (this runs for every key of every record written).
 */
export function encodeKeyPart(part: string): string {
  if (!SEPARATORS.test(part)) return part;
  return part.replace(/[%:{}]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
