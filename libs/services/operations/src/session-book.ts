/**
 * Dashboard sessions: the login form exchanges a key (checked by the gateway's verifier) for a random
 * session token in an HttpOnly cookie; the key never appears in a URL. `tenantOfCookie` is what the
 * gateway's guard calls for requests without an Authorization header. Sessions live in this process
 * (bounded, 12 h): a restart asks people to log in again.
 */
import { randomBytes } from 'node:crypto';
import type { TenantContext } from './tenant-context';

export const SESSION_COOKIE = 'wf_session';
const TTL_MS = 12 * 60 * 60 * 1000;

export class SessionBook {
  private readonly sessions = new Map<string, { tenant: TenantContext; expires: number }>();

  constructor(private readonly now: () => number = Date.now, private readonly max = 10_000) {}

  open(tenant: TenantContext): string {
    const token = randomBytes(24).toString('base64url');
    this.sessions.set(token, { tenant, expires: this.now() + TTL_MS });
    if (this.sessions.size > this.max) this.sessions.delete(this.sessions.keys().next().value as string);
    return token;
  }

  /** The tenant of a `Cookie:` header's session, if it is one of ours and not expired. */
  tenantOfCookie(cookieHeader: string | undefined): TenantContext | undefined {
    const token = cookieHeader
      ?.split(';')
      .map((c) => c.trim())
      .find((c) => c.startsWith(`${SESSION_COOKIE}=`))
      ?.slice(SESSION_COOKIE.length + 1);
    if (!token) return undefined;
    const session = this.sessions.get(token);
    if (!session) return undefined;
    if (session.expires <= this.now()) {
      this.sessions.delete(token);
      return undefined;
    }
    return session.tenant;
  }

  cookieFor(token: string): string {
    return `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${TTL_MS / 1000}`;
  }
}
