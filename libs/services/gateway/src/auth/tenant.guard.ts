/**
 * Auth in one place (STYLE "Doors"): before any handler runs, the bearer key becomes the request's
 * tenant. No key, an unknown key or a revoked key → 401. In local mode (no keys configured, loopback
 * bind) the local operator needs no key and acts for `?tenantId=T` (default `local`), when the request
 * passes local mode's doors (loopback Host and Origin, a JSON content type: the operations lib's local-mode-doors.ts). A `tenantId` in the
 * query that names another tenant than the key's → 403. For the operations module (dashboard, query
 * API) the guard also fills the TenantContext (`operator`: every gateway key may act); a request without
 * `Authorization` may carry a dashboard session cookie instead; the dashboard pages (DashboardController)
 * are not refused without a tenant: they render the login form. A route family marked `@KeyInHeader(name)`
 * (the LLM proxy, whose `Authorization` belongs to the upstream) takes its key from that header instead
 * and never reads `Authorization`. An empty key (`Bearer ` and nothing, issue #30) counts as no key.
 * A viewer key (or a viewer's session) only reads: any other method than GET/HEAD → 403 naming the role
 * (the dashboard's login form aside). A route family marked `@OpenRoute()` (health probes, the OpenAPI
 * description) needs no key and reads nothing of a tenant: the guard lets it pass untouched. A
 * state-changing request authenticated by the session cookie must send the session's CSRF token in
 * `X-CSRF-Token` (403 otherwise; the operations lib's session-csrf.ts).
 */
import { createParamDecorator, Inject, Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { Id } from '@wayfinder/contracts';
import { checkLocalModeRequest, checkSessionCsrf, DashboardController, type SessionBook, type TenantContext } from '@wayfinder/service-operations';
import { LOCAL_TENANT, type ResolvedTenant, type TenantAuthenticator } from '@wayfinder/tenancy';
import { ApiError, badRequest, forbidden } from '../http/api-error';
import { AUTHENTICATOR } from '../tokens';
import { FailedKeyLimiter } from './failed-key-limiter';


/** The guard's tenant: the gateway's ResolvedTenant, and the operations module's TenantContext (`operator`). */
export type GatewayTenant = ResolvedTenant & { readonly operator: boolean; readonly csrfToken?: string };

const KEY_HEADER = 'wayfinder:key-header';
/** The controller's tenant key travels in this header (lower case), not in `Authorization`. */
export const KeyInHeader = (name: string): ClassDecorator => SetMetadata(KEY_HEADER, name.toLowerCase());
const OPEN_ROUTE = 'wayfinder:open-route';
/** The controller's routes need no key (they serve nothing of a tenant): probes and the API's description. */
export const OpenRoute = (): ClassDecorator => SetMetadata(OPEN_ROUTE, true);
type TenantRequest = IncomingMessage & { query?: Record<string, unknown>; wayfinderTenant?: GatewayTenant };

@Injectable()
export class TenantGuard implements CanActivate {
  constructor(
    @Inject(AUTHENTICATOR) private readonly auth: TenantAuthenticator,
    private readonly sessions?: SessionBook,
    private readonly failures: FailedKeyLimiter = new FailedKeyLimiter(),
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (Reflect.getMetadata(OPEN_ROUTE, context.getClass()) === true) return true;
    const req = context.switchToHttp().getRequest<TenantRequest>();
    const asked = req.query?.tenantId;
    if (asked !== undefined && (typeof asked !== 'string' || !Id.safeParse(asked).success)) throw badRequest('tenantId must be one tenant id', 'tenantId');
    const keyHeader = Reflect.getMetadata(KEY_HEADER, context.getClass()) as string | undefined;
    if (keyHeader !== undefined) return this.fromKeyHeader(req, context, keyHeader, asked as string | undefined);
    // `Authorization: Bearer ` with nothing after it (a hook config's `Bearer $WAYFINDER_KEY` with the
    // variable unset) is no key at all: the local operator in local mode, "a key is required" otherwise.
    const sent = req.headers.authorization;
    const header = typeof sent === 'string' && /^\s*(Bearer\s*)?$/i.test(sent) ? undefined : sent;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) {
      const session = header === undefined ? await this.sessionOf(req) : undefined;
      if (session) {
        if (asked !== undefined && asked !== session.tenantId && !session.local) throw forbidden(`this session belongs to another tenant than ${asked}`, 'tenantId');
        req.wayfinderTenant = { tenantId: session.tenantId, local: session.local === true, keyId: 'session', role: session.operator ? 'operator' : 'viewer', operator: session.operator, ...(session.csrfToken !== undefined && { csrfToken: session.csrfToken }) };
        readOnlyCheck(req, context);
        // The cookie is ambient authority: a state-changing request must also send the session's CSRF token.
        if (session.csrfToken !== undefined) checkSessionCsrf(req, session.csrfToken, context);
        return true;
      }
      if (header === undefined && (await this.auth.localMode())) {
        checkLocalModeRequest(req, context.getClass() !== DashboardController);
        req.wayfinderTenant = { tenantId: (asked as string | undefined) ?? LOCAL_TENANT, local: true, keyId: 'local', role: 'operator', operator: true };
        return true;
      }
      // The dashboard's pages answer the login form themselves when there is no tenant.
      if (header === undefined && context.getClass() === DashboardController) return true;
      throw new ApiError(401, { error: header === undefined ? 'an API key is required: Authorization: Bearer <key>' : 'the Authorization header must be Bearer <key>' });
    }
    this.failures.assertAllowed(req.socket?.remoteAddress);
    const tenant = await this.auth.resolve(match[1]);
    if (!tenant) {
      this.failures.fail(req.socket?.remoteAddress);
      throw new ApiError(401, { error: 'unknown or revoked API key' });
    }
    if (asked !== undefined && asked !== tenant.tenantId) throw forbidden(`this key belongs to another tenant than ${asked}`, 'tenantId');
    req.wayfinderTenant = { ...tenant, operator: tenant.role === 'operator' };
    return readOnlyCheck(req, context);
  }

  /**
   * The session of the request's cookie, checked against its key: a revoked (or removed) key ends the
   * session now, and the request goes on as one without a session (401, or the dashboard's login form).
   */
  private async sessionOf(req: TenantRequest): Promise<TenantContext | undefined> {
    const found = this.sessions?.sessionOfCookie(typeof req.headers.cookie === 'string' ? req.headers.cookie : undefined);
    if (!found) return undefined;
    const { keyHash } = found.tenant;
    if (keyHash === undefined) return found.tenant.local ? { ...found.tenant, csrfToken: found.csrfToken } : undefined;
    const current = await this.auth.resolveHash(keyHash);
    if (!current || current.tenantId !== found.tenant.tenantId) {
      this.sessions?.close(found.token);
      return undefined;
    }
    return { ...found.tenant, operator: current.role === 'operator', csrfToken: found.csrfToken };
  }

  private async fromKeyHeader(req: TenantRequest, context: ExecutionContext, name: string, asked: string | undefined): Promise<boolean> {
    const raw = req.headers[name];
    const key = typeof raw === 'string' ? raw.replace(/^\s*Bearer(\s+|$)/i, '').trim() : '';
    if (key === '') {
      if (await this.auth.localMode()) {
        checkLocalModeRequest(req, true);
        req.wayfinderTenant = { tenantId: asked ?? LOCAL_TENANT, local: true, keyId: 'local', role: 'operator', operator: true };
        return true;
      }
      throw new ApiError(401, { error: `an API key is required: ${headerName(name)}: <key>`, field: headerName(name) });
    }
    this.failures.assertAllowed(req.socket?.remoteAddress);
    const tenant = await this.auth.resolve(key);
    if (!tenant) {
      this.failures.fail(req.socket?.remoteAddress);
      throw new ApiError(401, { error: `unknown or revoked API key in ${headerName(name)}`, field: headerName(name) });
    }
    if (asked !== undefined && asked !== tenant.tenantId) throw forbidden(`this key belongs to another tenant than ${asked}`, 'tenantId');
    req.wayfinderTenant = { ...tenant, operator: tenant.role === 'operator' };
    return readOnlyCheck(req, context);
  }
}

/** `x-wayfinder-key` → `X-Wayfinder-Key`, as the error names it. */
function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

const READ_METHODS = new Set(['GET', 'HEAD']);

/** A viewer reads: any other method is refused before the handler, naming the role (the login form excepted). */
function readOnlyCheck(req: TenantRequest, context: ExecutionContext): true {
  const tenant = req.wayfinderTenant;
  const method = (req.method ?? 'GET').toUpperCase();
  if (!tenant || tenant.operator || READ_METHODS.has(method) || context.getClass() === DashboardController) return true;
  const path = (req.url ?? '').split('?')[0];
  throw forbidden(`this key has the viewer role: it may only read; ${method} ${path} needs an operator key`, 'role');
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
