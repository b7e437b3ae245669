/**
 * The tenant of a request, as the gateway's auth guard decides it from the key (or the session cookie).
 * Handlers here never read a tenant from the URL: they take `@Tenant()`, which the guard filled in
 * `request.wayfinderTenant`. A request without it is refused (401): these routes are never mounted open.
 */
import { createParamDecorator, HttpException, type ExecutionContext } from '@nestjs/common';

export interface TenantContext {
  readonly tenantId: string;
  /** May act (resume, mark false positives, change the policy); viewers only read. */
  readonly operator: boolean;
  /**
   * Local mode (no keys configured, loopback): the one local operator may name any tenant with
   * `?tenantId=` (default the guard's tenantId, `local`), as on the gateway's agent routes.
   */
  readonly local?: boolean;
  /** A dashboard session's key (its SHA-256 hash): the guard re-checks it on every request. */
  readonly keyHash?: string;
  /** A dashboard session's CSRF token: its pages render it, their scripts send it back (session-csrf.ts). */
  readonly csrfToken?: string;
}

/** Where the guard puts the context on the (Express) request. */
export const TENANT_CONTEXT_PROPERTY = 'wayfinderTenant';

export interface RequestWithTenant {
  [TENANT_CONTEXT_PROPERTY]?: TenantContext;
  query?: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

export function tenantOfRequest(request: RequestWithTenant): TenantContext {
  const context = request[TENANT_CONTEXT_PROPERTY];
  if (!context || typeof context.tenantId !== 'string') throw new HttpException({ error: 'a key is required' }, 401);
  const named = request.query?.tenantId;
  if (typeof named === 'string' && named !== context.tenantId) {
    if (!context.local) throw new HttpException({ error: 'this key may not name another tenant', field: 'tenantId' }, 403);
    return { ...context, tenantId: named };
  }
  return context;
}

/** `@Tenant() tenant: TenantContext` in a handler. */
export const Tenant = createParamDecorator((_: unknown, ctx: ExecutionContext): TenantContext => tenantOfRequest(ctx.switchToHttp().getRequest<RequestWithTenant>()));

export function requireOperator(tenant: TenantContext): void {
  if (!tenant.operator) throw new HttpException({ error: 'this key has the viewer role: it may only read; this needs an operator key', field: 'role' }, 403);
}
