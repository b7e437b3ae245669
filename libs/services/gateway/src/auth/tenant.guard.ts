/**
 * Auth in one place (STYLE "Doors"): before any handler runs, the bearer key becomes the request's
 * tenant. No key, an unknown key or a revoked key → 401. In local mode (no keys configured, loopback
 * bind) the local operator needs no key and acts for `?tenantId=T` (default `local`). A `tenantId` in the
 * query that names another tenant than the key's → 403.
 */
import { createParamDecorator, Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { Id } from '@wayfinder/contracts';
import { LOCAL_TENANT, type ResolvedTenant, type TenantAuthenticator } from '@wayfinder/tenancy';
import { ApiError, badRequest, forbidden } from '../http/api-error';
import { AUTHENTICATOR } from '../tokens';

type TenantRequest = IncomingMessage & { query?: Record<string, unknown>; wayfinderTenant?: ResolvedTenant };

@Injectable()
export class TenantGuard implements CanActivate {
  constructor(@Inject(AUTHENTICATOR) private readonly auth: TenantAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<TenantRequest>();
    const asked = req.query?.tenantId;
    if (asked !== undefined && (typeof asked !== 'string' || !Id.safeParse(asked).success)) throw badRequest('tenantId must be one tenant id', 'tenantId');
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) {
      if (header === undefined && (await this.auth.localMode())) {
        req.wayfinderTenant = { tenantId: (asked as string | undefined) ?? LOCAL_TENANT, local: true, keyId: 'local' };
        return true;
      }
      throw new ApiError(401, { error: header === undefined ? 'an API key is required: Authorization: Bearer <key>' : 'the Authorization header must be Bearer <key>' });
    }
    const tenant = await this.auth.resolve(match[1]);
    if (!tenant) throw new ApiError(401, { error: 'unknown or revoked API key' });
    if (asked !== undefined && asked !== tenant.tenantId) throw forbidden(`this key belongs to another tenant than ${asked}`, 'tenantId');
    req.wayfinderTenant = tenant;
    return true;
  }
}

/** The tenant the guard resolved for this request. */
export const CurrentTenant = createParamDecorator((_data: unknown, context: ExecutionContext): ResolvedTenant => {
  const tenant = context.switchToHttp().getRequest<TenantRequest>().wayfinderTenant;
  if (!tenant) throw new ApiError(401, { error: 'an API key is required: Authorization: Bearer <key>' });
  return tenant;
});

/**
 * The tenant an item of a body belongs to: the key's when it names none; 403 when it names another
 * (the local operator may name any).
 */
export function tenantOfItem(tenant: ResolvedTenant, named: unknown, field = 'tenantId', index?: number): string {
  if (named === undefined) return tenant.tenantId;
  if (typeof named === 'string' && (named === tenant.tenantId || tenant.local)) return named;
  throw forbidden(`tenantId ${JSON.stringify(named)} is not the tenant of this key`, field, index);
}
