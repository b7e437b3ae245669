import type { Redis } from 'ioredis';

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

/**
 * Deletes every key matching one of the patterns (SCAN, then DEL in pages): how a test or a benchmark
 * removes its own run's keys, and nothing else, from a shared Redis. Resolves to how many were deleted.
 */
export async function deleteMatching(redis: Pick<Redis, 'scan' | 'del'>, patterns: readonly string[]): Promise<number> {
  let deleted = 0;
  for (const pattern of patterns) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length > 0) deleted += await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
  return deleted;
}
