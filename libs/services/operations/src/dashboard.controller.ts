/**
 * The dashboard (DESIGN §13) at `/`: the fleet per tenant (live), an agent's page, escalations with a
 * resume action, the tenant's policy, and the login form that turns a key into an HttpOnly session cookie
 * (when the gateway passes a key verifier; with no keys configured nobody logs in).
 */
import { Body, Controller, Get, Header, HttpCode, Inject, Optional, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { HistoryStore } from '@wayfinder/history';
import type { PolicyBook } from '@wayfinder/service-core';
import { agentPage, escalationsPage, fleetPage, loginPage, policyPage } from './dashboard-pages';
import { agentTimeline, fleetView, listAgents, listEscalations, readableTenants } from './history-queries';
import { httpError } from './http-errors';
import type { SessionBook } from './session-book';
import { tenantOfRequest, TENANT_CONTEXT_PROPERTY, type RequestWithTenant, type TenantContext } from './tenant-context';
import { HISTORY_STORE, OPERATIONS_POLICIES, OPERATIONS_SECURE_COOKIE, OPERATIONS_SESSIONS, OPERATIONS_VERIFY_KEY } from './tokens';

/**
 * Checks a key typed into the login form, for the client at `address` (the gateway counts failures per
 * address and throws 429 past its limit).
 */
export type VerifyKey = (key: string, address?: string) => Promise<TenantContext | undefined>;

interface RedirectResponse {
  status(code: number): RedirectResponse;
  setHeader(name: string, value: string): void;
  type(t: string): RedirectResponse;
  send(body: string): void;
}

@Controller()
export class DashboardController {
  constructor(
    @Inject(HISTORY_STORE) private readonly store: HistoryStore,
    @Inject(OPERATIONS_POLICIES) private readonly policies: PolicyBook,
    @Inject(OPERATIONS_SESSIONS) private readonly sessions: SessionBook,
    @Optional() @Inject(OPERATIONS_VERIFY_KEY) private readonly verifyKey?: VerifyKey,
    @Optional() @Inject(OPERATIONS_SECURE_COOKIE) private readonly secureCookie?: boolean,
  ) {}

  /** No tenant (no key, no session) → the login form instead of a 401 page. */
  private tenantOr(request: RequestWithTenant, response: RedirectResponse): TenantContext | undefined {
    if (!request[TENANT_CONTEXT_PROPERTY]) {
      response.status(401).type('html').send(loginPage());
      return undefined;
    }
    return tenantOfRequest(request);
  }

  @Get()
  async fleet(@Req() request: RequestWithTenant, @Res() response: RedirectResponse, @Query('tenantId') named?: string): Promise<void> {
    const tenant = this.tenantOr(request, response);
    if (!tenant) return;
    const tenants = await readableTenants(this.store, tenant, named);
    const sections = await Promise.all(tenants.map(async (t) => ({ fleet: await fleetView(this.store, t), agents: await listAgents(this.store, t) })));
    response.type('html').send(fleetPage(sections, tenant.local === true, tenant.local === true && named === undefined));
  }

  @Get('agents/:agentId')
  async agent(@Req() request: RequestWithTenant, @Res() response: RedirectResponse, @Param('agentId') agentId: string): Promise<void> {
    const tenant = this.tenantOr(request, response);
    if (!tenant) return;
    const timeline = await agentTimeline(this.store, tenant.tenantId, agentId);
    if (!timeline) throw httpError(404, `no agent ${agentId} in this tenant`, 'agentId');
    response.type('html').send(agentPage(timeline, tenant.local === true, tenant.operator));
  }

  @Get('escalations')
  async escalations(@Req() request: RequestWithTenant, @Res() response: RedirectResponse): Promise<void> {
    const tenant = this.tenantOr(request, response);
    if (!tenant) return;
    response.type('html').send(escalationsPage(tenant.tenantId, await listEscalations(this.store, tenant.tenantId, { open: true }), tenant.local === true, tenant.operator));
  }

  @Get('policy')
  async policy(@Req() request: RequestWithTenant, @Res() response: RedirectResponse): Promise<void> {
    const tenant = this.tenantOr(request, response);
    if (!tenant) return;
    response.type('html').send(policyPage(tenant.tenantId, this.policies.tenant(tenant.tenantId)));
  }

  @Get('login')
  @Header('content-type', 'text/html; charset=utf-8')
  login(): string {
    return loginPage();
  }

  /** The key comes in the form body (never the URL); the answer sets an HttpOnly session cookie. */
  @Post('login')
  @HttpCode(303)
  async logIn(@Body() body: unknown, @Req() request: { socket?: { remoteAddress?: string } }, @Res() response: RedirectResponse): Promise<void> {
    const key = typeof body === 'object' && body !== null && typeof (body as { key?: unknown }).key === 'string' ? (body as { key: string }).key : '';
    const tenant = this.verifyKey ? await this.verifyKey(key, request.socket?.remoteAddress) : undefined;
    if (!tenant) {
      response.status(401).type('html').send(loginPage(this.verifyKey ? 'That key is not valid.' : 'No keys are configured: no login is needed.'));
      return;
    }
    response.setHeader('set-cookie', this.sessions.cookieFor(this.sessions.open(tenant), this.secureCookie === true));
    response.setHeader('location', '/');
    response.status(303).send('');
  }
}
