/**
 * Dashboard sessions: the login form exchanges a key (checked by the gateway's verifier) for a random
 * session token in an HttpOnly cookie; the key never appears in a URL. `sessionOfCookie` is what the
 * gateway's guard calls for requests without an Authorization header; the session keeps the hash of its
 * key (`TenantContext.keyHash`), which the guard checks on every request, so revoking the key ends the
 * session at once (`close`). Sessions live in this process (12 h): a restart asks people to log in again.
 * Bounded per tenant (the oldest of that tenant goes first, so one tenant's logins never log another
 * out) and process-wide. Each session has its own CSRF token (random, kept with it): the dashboard's
 * pages carry it, and a state-changing request authenticated by the cookie must send it back in
 * `X-CSRF-Token` (session-csrf.ts).
 */
import { randomBytes } from 'node:crypto';
import type { TenantContext } from './tenant-context';

export const SESSION_COOKIE = 'wf_session';
const TTL_MS = 12 * 60 * 60 * 1000;

interface Session {
  tenant: TenantContext;
  expires: number;
  csrfToken: string;
}

/** A live session as a guard sees it: its token (to `close` it), its tenant and its CSRF token. */
export interface OpenSession {
  token: string;
  tenant: TenantContext;
  csrfToken: string;
}

export class SessionBook {
  /** In order of opening: the first entry is the oldest. */
  private readonly sessions = new Map<string, Session>();
  /** Each tenant's tokens, oldest first. */
  private readonly byTenant = new Map<string, Set<string>>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly max = 10_000,
    private readonly maxPerTenant = 20,
  ) {}

  open(tenant: TenantContext): string {
    const token = randomBytes(24).toString('base64url');
    this.sessions.set(token, { tenant, expires: this.now() + TTL_MS, csrfToken: randomBytes(24).toString('base64url') });
    let mine = this.byTenant.get(tenant.tenantId);
    if (!mine) this.byTenant.set(tenant.tenantId, (mine = new Set()));
    mine.add(token);
    if (mine.size > this.maxPerTenant) this.drop(mine.values().next().value as string);
    if (this.sessions.size > this.max) this.drop(this.sessions.keys().next().value as string);
    return token;
  }

  /** The tenant of a `Cookie:` header's session, if it is one of ours and not expired. */
  tenantOfCookie(cookieHeader: string | undefined): TenantContext | undefined {
    return this.sessionOfCookie(cookieHeader)?.tenant;
  }

  /** The session of a `Cookie:` header, if it is one of ours and not expired. */
  sessionOfCookie(cookieHeader: string | undefined): OpenSession | undefined {
    const token = tokenOf(cookieHeader);
    if (!token) return undefined;
    const session = this.sessions.get(token);
    if (!session) return undefined;
    if (session.expires <= this.now()) {
      this.drop(token);
      return undefined;
    }
    return { token, tenant: session.tenant, csrfToken: session.csrfToken };
  }

  /** Ends a session (its key was revoked, or the user logged out). */
  close(token: string): void {
    this.drop(token);
  }

  get size(): number {
    return this.sessions.size;
  }

  cookieFor(token: string, secure = false): string {
    return `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${TTL_MS / 1000}${secure ? '; Secure' : ''}`;
  }

  private drop(token: string): void {
    const session = this.sessions.get(token);
    if (!session) return;
    this.sessions.delete(token);
    const mine = this.byTenant.get(session.tenant.tenantId);
    mine?.delete(token);
    if (mine?.size === 0) this.byTenant.delete(session.tenant.tenantId);
  }
}

function tokenOf(cookieHeader: string | undefined): string | undefined {
  return cookieHeader
    ?.split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`))
    ?.slice(SESSION_COOKIE.length + 1);
}
