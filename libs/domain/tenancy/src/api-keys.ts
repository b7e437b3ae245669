/**
 * Tenant API keys (DESIGN §12): generated as `wf_<tenant-slug>_<random>`, stored only as their SHA-256,
 * compared in constant time. The key decides the tenant; nothing else in a request may.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { MAX_ID_LENGTH } from '@wayfinder/contracts';

/**
 * What a key may do (DESIGN §13): an `operator` acts (resume, ack, mark false positives, set the policy,
 * publish steps and tasks); a `viewer` only reads (the query API and the dashboard). Records written
 * before roles existed have none: they are operators.
 */
export type KeyRole = 'operator' | 'viewer';
export const KEY_ROLES: readonly KeyRole[] = ['operator', 'viewer'];

export function isKeyRole(value: string): value is KeyRole {
  return (KEY_ROLES as readonly string[]).includes(value);
}

/** What a store keeps of a key: never the key itself. */
export interface ApiKeyRecord {
  readonly keyId: string;
  readonly tenantId: string;
  /** Absent = `operator` (keys created before roles). */
  readonly role?: KeyRole;
  /** SHA-256 of the key, lowercase hex. */
  readonly hash: string;
  readonly createdAt: string;
  readonly revokedAt?: string;
}

export interface GeneratedKey {
  /** Shown once, to the operator who created it. */
  readonly key: string;
  readonly record: ApiKeyRecord;
}

export type TenancyResult<T> = { ok: true; value: T } | { ok: false; error: string };

const SLUG_CHARS = 12;

/** The readable part of a key: the tenant id lowercased to [a-z0-9], at most 12 characters. */
export function tenantSlug(tenantId: string): string {
  const slug = tenantId.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, SLUG_CHARS);
  return slug || 'tenant';
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** True when `key` hashes to `hash`, in time independent of where they differ. */
export function keyMatchesHash(key: string, hash: string): boolean {
  const actual = Buffer.from(hashApiKey(key), 'hex');
  const expected = Buffer.from(hash, 'hex');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}

/** A tenant id as the contracts accept it (1–128 characters), or the reason it is not. */
export function checkTenantId(tenantId: string): string | undefined {
  if (tenantId.length === 0) return 'the tenant must not be empty';
  if (tenantId.length > MAX_ID_LENGTH) return `the tenant must be at most ${MAX_ID_LENGTH} characters`;
  if (/\s/.test(tenantId)) return 'the tenant must not contain whitespace';
  return undefined;
}

export function generateApiKey(tenantId: string, now: Date = new Date(), random: (bytes: number) => Buffer = randomBytes, role: KeyRole = 'operator'): GeneratedKey {
  const problem = checkTenantId(tenantId);
  if (problem) throw new Error(problem);
  const key = `wf_${tenantSlug(tenantId)}_${random(24).toString('base64url')}`;
  const keyId = `key_${random(6).toString('hex')}`;
  return { key, record: { keyId, tenantId, ...(role === 'viewer' && { role }), hash: hashApiKey(key), createdAt: now.toISOString() } };
}

/** The role of a stored key (records without one are operators). */
export function roleOf(record: Pick<ApiKeyRecord, 'role'>): KeyRole {
  return record.role ?? 'operator';
}

export interface SeedKey {
  readonly tenantId: string;
  readonly hash: string;
}

export const MIN_SEED_KEY_LENGTH = 8;

/**
 * Parses `WAYFINDER_API_KEYS` (`tenant:key,tenant:key`): development and CI keys, hashed at once. The
 * tenant is everything before the first `:`, so a key may contain `:`.
 */
export function parseApiKeysVariable(value: string | undefined): TenancyResult<SeedKey[]> {
  if (value === undefined || value.trim() === '') return { ok: true, value: [] };
  const seeds: SeedKey[] = [];
  const entries = value.split(',');
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i].trim();
    if (entry === '') continue;
    const colon = entry.indexOf(':');
    if (colon < 0) return { ok: false, error: `entry ${i + 1} must be tenant:key (no ':' found)` };
    const tenantId = entry.slice(0, colon);
    const key = entry.slice(colon + 1);
    const problem = checkTenantId(tenantId);
    if (problem) return { ok: false, error: `entry ${i + 1}: ${problem}` };
    if (key.length < MIN_SEED_KEY_LENGTH || /\s/.test(key)) {
      return { ok: false, error: `entry ${i + 1} (tenant ${tenantId}): the key must be at least ${MIN_SEED_KEY_LENGTH} characters without whitespace` };
    }
    seeds.push({ tenantId, hash: hashApiKey(key) });
  }
  return { ok: true, value: seeds };
}
