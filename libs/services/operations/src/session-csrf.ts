/**
 * CSRF tokens of dashboard sessions (issue #29). A request authenticated by the session cookie that
 * changes state (anything but GET, HEAD, OPTIONS) must carry the session's own token in `X-CSRF-Token`;
 * without it, or with another session's, → 403 naming the header. The pages render the token and their
 * scripts send it back. Requests with a bearer key (agents, CLI) carry no cookie authority and are not
 * checked; `SameSite=Strict` on the cookie is the first line, this is the second. The login form is
 * exempt (`@SessionCsrfExempt()`): it acts with the key typed into it, not with the cookie.
 */
import { SetMetadata, type ExecutionContext } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { httpError } from './http-errors';

export const CSRF_HEADER = 'X-CSRF-Token';
const EXEMPT = 'wayfinder:session-csrf-exempt';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The route does not act with the session cookie's authority (the login form). */
export const SessionCsrfExempt = (): MethodDecorator => SetMetadata(EXEMPT, true);

export interface CsrfCheckedRequest {
  method?: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Throws 403 when a cookie-authenticated, state-changing request lacks the session's CSRF token. */
export function checkSessionCsrf(req: CsrfCheckedRequest, expected: string, context: ExecutionContext): void {
  if (SAFE_METHODS.has((req.method ?? 'GET').toUpperCase())) return;
  if (Reflect.getMetadata(EXEMPT, context.getHandler()) === true) return;
  const sent = req.headers[CSRF_HEADER.toLowerCase()];
  if (typeof sent === 'string' && sameToken(sent, expected)) return;
  throw httpError(403, `a request made with the dashboard's session cookie must send the session's CSRF token in ${CSRF_HEADER}${sent === undefined ? '' : ' (this one is not the session\'s)'}`, CSRF_HEADER);
}

function sameToken(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
