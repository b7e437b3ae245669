/**
 * Which tenant opened each MCP session through this gateway instance (the `Mcp-Session-Id` a server gave
 * in answer to an `initialize` passed on for that tenant). A request naming a session another tenant
 * opened is refused as an MCP server refuses a session it does not know (404, so the client starts a new
 * one): the operator's servers are shared by every tenant, and a session must not be. A session this
 * instance did not see open (opened through another instance, or before a restart; the 2026-07-28
 * revision has none) is passed on: the server's session ids are unguessable, this is a second wall.
 * Bounded per tenant (its oldest sessions forgotten first), so no tenant can push out another's.
 */
export class McpSessions {
  private readonly owners = new Map<string, string>();
  private readonly byTenant = new Map<string, Set<string>>();

  constructor(private readonly perTenant = 10_000) {}

  opened(server: string, sessionId: string, tenantId: string): void {
    const key = `${server}\u0000${sessionId}`;
    const previous = this.owners.get(key);
    if (previous !== undefined) this.byTenant.get(previous)?.delete(key);
    this.owners.set(key, tenantId);
    let mine = this.byTenant.get(tenantId);
    if (!mine) this.byTenant.set(tenantId, (mine = new Set()));
    mine.add(key);
    for (const oldest of mine) {
      if (mine.size <= this.perTenant) break;
      mine.delete(oldest);
      this.owners.delete(oldest);
    }
  }

  /** False when the session is another tenant's. */
  allows(server: string, sessionId: string, tenantId: string): boolean {
    const owner = this.owners.get(`${server}\u0000${sessionId}`);
    return owner === undefined || owner === tenantId;
  }

  ended(server: string, sessionId: string): void {
    const key = `${server}\u0000${sessionId}`;
    const owner = this.owners.get(key);
    if (owner === undefined) return;
    this.owners.delete(key);
    const mine = this.byTenant.get(owner);
    mine?.delete(key);
    if (mine?.size === 0) this.byTenant.delete(owner);
  }
}
