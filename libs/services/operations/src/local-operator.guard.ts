/**
 * The guard of the operations surface served alone on loopback with no keys (serve-operations, local
 * mode, GATEWAY-API.md): every request is the local operator, who may name any tenant. It runs local
 * mode's doors like the gateway's guard (loopback Host, no foreign Origin, JSON bodies:
 * local-mode-doors.ts). A session cookie wins when there is one, and then a state-changing request needs
 * the session's CSRF token (session-csrf.ts).
 */
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { DashboardController } from './dashboard.controller';
import { checkLocalModeRequest } from './local-mode-doors';
import type { SessionBook } from './session-book';
import { checkSessionCsrf } from './session-csrf';
import { TENANT_CONTEXT_PROPERTY, type RequestWithTenant } from './tenant-context';

@Injectable()
export class LocalOperatorGuard implements CanActivate {
  constructor(private readonly sessions?: SessionBook) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RequestWithTenant & IncomingMessage>();
    // The dashboard's own routes parse no JSON body (the login form is urlencoded).
    checkLocalModeRequest(request, context.getClass() !== DashboardController);
    const cookie = request.headers.cookie;
    const session = this.sessions?.sessionOfCookie(typeof cookie === 'string' ? cookie : undefined);
    if (session) {
      checkSessionCsrf(request, session.csrfToken, context);
      request[TENANT_CONTEXT_PROPERTY] = { ...session.tenant, csrfToken: session.csrfToken };
    } else {
      request[TENANT_CONTEXT_PROPERTY] = { tenantId: 'local', operator: true, local: true };
    }
    return true;
  }
}
