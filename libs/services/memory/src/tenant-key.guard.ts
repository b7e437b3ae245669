/**
 * The memory API is never open (issue 14): every request carries `Authorization: Bearer <key>`, the key
 * names one tenant (WAYFINDER_MEMORY_API_KEYS: a JSON object from key to tenant), and a request may only
 * reach that tenant's routes (`/v1/tenants/:tenantId/...`). No key, an unknown key: 401; a key of another
 * tenant: 403; no keys configured: every request 401, saying so. Its own check, until the HTTP gateway's
 * tenant keys front it.
 */
import { ForbiddenException, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';

/** The tenant a key opens, or undefined. */
export type TenantOfKey = (key: string) => string | undefined;

/** A lookup over configured keys (compared in constant time). */
export function tenantKeys(keys: Readonly<Record<string, string>>): TenantOfKey {
  const entries = Object.entries(keys).map(([key, tenant]) => [Buffer.from(key), tenant] as const);
  return (key) => {
    const given = Buffer.from(key);
    for (const [candidate, tenant] of entries) if (candidate.length === given.length && timingSafeEqual(candidate, given)) return tenant;
    return undefined;
  };
}

export class TenantKeyGuard implements CanActivate {
  constructor(private readonly tenantOf: TenantOfKey | undefined) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true; // the Bus transport's handlers: not a door
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; params?: Record<string, string> }>();
    if (!this.tenantOf) throw new UnauthorizedException({ statusCode: 401, error: 'the memory API has no keys configured (WAYFINDER_MEMORY_API_KEYS); it answers no request' });
    const header = request.headers['authorization'] ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const tenant = match ? this.tenantOf(match[1]) : undefined;
    if (!tenant) throw new UnauthorizedException({ statusCode: 401, error: match ? 'unknown API key' : 'missing API key (Authorization: Bearer <key>)', field: 'authorization' });
    const wanted = request.params?.['tenantId'];
    if (wanted !== undefined && wanted !== tenant) throw new ForbiddenException({ statusCode: 403, error: 'this API key does not open that tenant', field: 'tenantId' });
    return true;
  }
}
