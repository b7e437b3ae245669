/**
 * Until the gateway mounts the operations module: the guard of a dashboard served on loopback with no
 * keys (local mode, GATEWAY-API.md): every request is the local operator, who may name any tenant.
 * A session cookie from the login form wins when there is one.
 */
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { SessionBook } from './session-book';
import { TENANT_CONTEXT_PROPERTY, type RequestWithTenant } from './tenant-context';

@Injectable()
export class LocalOperatorGuard implements CanActivate {
  constructor(private readonly sessions?: SessionBook) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RequestWithTenant>();
    const cookie = request.headers.cookie;
    const session = this.sessions?.tenantOfCookie(typeof cookie === 'string' ? cookie : undefined);
    request[TENANT_CONTEXT_PROPERTY] = session ?? { tenantId: 'local', operator: true, local: true };
    return true;
  }
}
