/**
 * Qdrant point ids must be UUIDs or integers, and the VectorStore port makes an id unique only within its
 * tenant. So the Qdrant id is a name-based UUID (v5 layout over SHA-1) of tenant and id: the same memory
 * id in two tenants gives two points, and a redelivered upsert hits the same point.
 */
import { createHash } from 'node:crypto';

/** A fixed namespace so ids are stable across processes and versions. */
const NAMESPACE = 'wayfinder.memory.v1';

export function pointUuid(tenantId: string, id: string): string {
  const bytes = createHash('sha1').update(NAMESPACE).update('\u0000').update(tenantId).update('\u0000').update(id).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50; // version 5
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
