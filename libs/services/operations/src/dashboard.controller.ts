/**
 * The dashboard (DESIGN §13) at `/`: a tenant's fleet (live), an agent's page, escalations with a
 * resume action, the tenant's policy with its editor, its API keys (operators), logout, and the login form that turns a key into an HttpOnly session cookie
 * (when the gateway passes a key verifier; with no keys configured nobody logs in). Every page goes out
 * with DASHBOARD_HEADERS (Content-Security-Policy, nosniff, no referrer); the pages' scripts are served
 * from `/dashboard/assets/<name>.js`.
 */
import { Body, Controller, Get, HttpCode, Inject, Optional, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { HistoryRetention, HistoryStore } from '@wayfinder/history';
import type { PolicyBook } from '@wayfinder/service-core';
import { agentsQueryOf } from './agents-query-params';
import { DASHBOARD_ASSETS } from './dashboard-assets';
import { agentPage, DASHBOARD_HEADERS, escalationsPage, FLEET_PAGE_SIZE, fleetPage, keysPage, loginPage, policyPage, type Viewer } from './dashboard-pages';
import { agentTimeline, fleetView, listEscalations, pageOfAgents, readableTenants, tenantWithAgents } from './history-queries';
import { httpError } from './http-errors';
import { SESSION_COOKIE, type SessionBook } from './session-book';
import { SessionCsrfExempt } from './session-csrf';
import { tenantOfRequest, TENANT_CONTEXT_PROPERTY, type RequestWithTenant, type TenantContext } from './tenant-context';
import { HISTORY_STORE, OPERATIONS_POLICIES, OPERATIONS_RETENTION, OPERATIONS_SECURE_COOKIE, OPERATIONS_SESSIONS, OPERATIONS_VERIFY_KEY } from './tokens';

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
    @Inject(OPERATIONS_RETENTION) private readonly retention: HistoryRetention,
    @Optional() @Inject(OPERATIONS_VERIFY_KEY) private readonly verifyKey?: VerifyKey,
    @Optional() @Inject(OPERATIONS_SECURE_COOKIE) private readonly secureCookie?: boolean,
  ) {}

  /** No tenant (no key, no session) → the login form instead of a 401 page. */
  private tenantOr(request: RequestWithTenant, response: RedirectResponse): TenantContext | undefined {
    if (!request[TENANT_CONTEXT_PROPERTY]) {
      sendPage(response.status(401), loginPage());
      return undefined;
    }
    return tenantOfRequest(request);
  }

  /** The pages' scripts and stylesheet (dashboard-assets.ts): static, the same for every tenant, no key needed. */
  @Get('dashboard/assets/:name')
  asset(@Param('name') name: string, @Res() response: RedirectResponse): void {
    const asset = Object.hasOwn(DASHBOARD_ASSETS, name) ? DASHBOARD_ASSETS[name] : undefined;
    if (asset === undefined) throw httpError(404, `no dashboard asset ${name}`, 'name');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Cache-Control', 'no-cache');
    response.type(asset.type).send(asset.body);
  }

  /** Who looks: in local mode with no `?tenantId=`, the nav opens a tenant that has agents (tenantWithAgents). */
  private async viewerOf(tenant: TenantContext, request: RequestWithTenant): Promise<Viewer> {
    const named = typeof request.query?.['tenantId'] === 'string' ? request.query['tenantId'] : undefined;
    return {
      tenantId: await tenantWithAgents(this.store, tenant, named),
      local: tenant.local === true,
      operator: tenant.operator,
      ...(tenant.csrfToken !== undefined && { csrfToken: tenant.csrfToken }),
    };
  }

  /** One tenant's fleet; the filters come in the query string the page's form (and its script) send. */
  @Get()
  async fleet(@Req() request: RequestWithTenant, @Res() response: RedirectResponse, @Query() query: Record<string, unknown>): Promise<void> {
    const tenant = this.tenantOr(request, response);
    if (!tenant) return;
    const viewer = await this.viewerOf(tenant, request);
    const filters = Object.fromEntries(['q', 'state', 'detector', 'sort'].flatMap((k) => (typeof query[k] === 'string' && query[k] !== '' ? [[k, query[k] as string]] : [])));
    const asked = agentsQueryOf({ ...filters, limit: String(FLEET_PAGE_SIZE) });
    if (typeof asked === 'string') throw httpError(400, asked.slice(asked.indexOf(' ') + 1), asked.slice(0, asked.indexOf(' ')));
    const [fleet, agents, attention, tenants] = await Promise.all([
      fleetView(this.store, viewer.tenantId),
      pageOfAgents(this.store, viewer.tenantId, asked),
      pageOfAgents(this.store, viewer.tenantId, { sort: 'attention', limit: 8 }),
      readableTenants(this.store, tenant, undefined),
    ]);
    const needing = attention.agents.filter((a) => a.state === 'frozen' || a.state === 'looping');
    sendPage(response, fleetPage({ fleet, agents, attention: needing, tenants, filters, nowMs: Date.now() }, viewer));
  }

  @Get('agents/:agentId')
  async agent(@Req() request: RequestWithTenant, @Res() response: RedirectResponse, @Param('agentId') agentId: string): Promise<void> {
    const tenant = this.tenantOr(request, response);
    if (!tenant) return;
    const timeline = await agentTimeline(this.store, tenant.tenantId, agentId);
    if (!timeline) throw httpError(404, `no agent ${agentId} in this tenant`, 'agentId');
    sendPage(response, agentPage(timeline, await this.viewerOf(tenant, request)));
  }

  /** Open escalations of every tenant the viewer reads (local mode with no `?tenantId=`: all of them). */
  @Get('escalations')
  async escalations(@Req() request: RequestWithTenant, @Res() response: RedirectResponse): Promise<void> {
    const tenant = this.tenantOr(request, response);
    if (!tenant) return;
    const named = typeof request.query?.['tenantId'] === 'string' ? request.query['tenantId'] : undefined;
    const tenants = await readableTenants(this.store, tenant, named);
    const open = await Promise.all(tenants.map(async (t) => (await listEscalations(this.store, t, { open: true })).map((e) => ({ ...e, tenantId: t }))));
    const all = open.flat().sort((a, b) => Date.parse(b.ts) - Date.parse(a.ts));
    sendPage(response, escalationsPage(all, await this.viewerOf(tenant, request)));
  }

  @Get('policy')
  async policy(@Req() request: RequestWithTenant, @Res() response: RedirectResponse): Promise<void> {
    const tenant = this.tenantOr(request, response);
    if (!tenant) return;
    const viewer = await this.viewerOf(tenant, request);
    sendPage(response, policyPage(viewer.tenantId, this.policies.tenant(viewer.tenantId), this.policies.profile, viewer, this.retention));
  }

  /** The tenant's API keys: the page is a frame, keys.js reads and changes them through `/v1/keys`; a viewer gets a 403 page. */
  @Get('keys')
  async keys(@Req() request: RequestWithTenant, @Res() response: RedirectResponse): Promise<void> {
    const tenant = this.tenantOr(request, response);
    if (!tenant) return;
    const viewer = await this.viewerOf(tenant, request);
    sendPage(viewer.operator ? response : response.status(403), keysPage(viewer));
  }

  /**
   * Ends the session of the request's cookie (a POST: the guard has checked its CSRF token) and clears
   * the cookie; then the login form.
   */
  @Post('logout')
  @HttpCode(303)
  logOut(@Req() request: { headers?: Record<string, string | string[] | undefined> }, @Res() response: RedirectResponse): void {
    const cookie = request.headers?.['cookie'];
    const session = this.sessions.sessionOfCookie(typeof cookie === 'string' ? cookie : undefined);
    if (session) this.sessions.close(session.token);
    response.setHeader('set-cookie', `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0${this.secureCookie === true ? '; Secure' : ''}`);
    response.setHeader('location', '/login');
    response.status(303).send('');
  }

  @Get('login')
  login(@Res() response: RedirectResponse): void {
    sendPage(response, loginPage());
  }

  /**
   * The key comes in the form body (never the URL); the answer sets an HttpOnly session cookie. It acts
   * with the typed key, not with a cookie the browser may already hold: no CSRF token is asked. A form
   * posted from another site (login CSRF: the browser logged into the attacker's own key) is refused by
   * the `Sec-Fetch-Site` browsers send; clients that send none (curl, scripts) are served.
   */
  @Post('login')
  @HttpCode(303)
  @SessionCsrfExempt()
  async logIn(@Body() body: unknown, @Req() request: { socket?: { remoteAddress?: string }; headers?: Record<string, string | string[] | undefined> }, @Res() response: RedirectResponse): Promise<void> {
    const site = request.headers?.['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') throw httpError(403, `the login form is accepted only from the dashboard's own pages (Sec-Fetch-Site: ${site})`, 'Sec-Fetch-Site');
    const key = typeof body === 'object' && body !== null && typeof (body as { key?: unknown }).key === 'string' ? (body as { key: string }).key : '';
    const tenant = this.verifyKey ? await this.verifyKey(key, request.socket?.remoteAddress) : undefined;
    if (!tenant) {
      sendPage(response.status(401), loginPage(this.verifyKey ? 'That key is not valid.' : 'No keys are configured: no login is needed.'));
      return;
    }
    response.setHeader('set-cookie', this.sessions.cookieFor(this.sessions.open(tenant), this.secureCookie === true));
    response.setHeader('location', '/');
    response.status(303).send('');
  }
}

/** A dashboard page with its security headers (DASHBOARD_HEADERS). */
function sendPage(response: RedirectResponse, html: string): void {
  for (const [name, value] of Object.entries(DASHBOARD_HEADERS)) response.setHeader(name, value);
  response.type('html').send(html);
}
