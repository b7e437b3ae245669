/**
 * `/v1/mcp/{server}`: the MCP door (DESIGN §12), a Streamable HTTP proxy (MCP revisions 2025-06-18 and
 * 2026-07-28) to the MCP servers the operator configured (WAYFINDER_MCP_SERVERS): a tenant names a
 * server, never a URL; an unknown name is a 404 naming it. The tenant's key in `X-Wayfinder-Key` (the
 * agent's `Authorization` belongs to the MCP server and passes through, as do `Mcp-Session-Id` and
 * `MCP-Protocol-Version`); the agent in `X-Wayfinder-Agent` (else the MCP session), its task in
 * `X-Wayfinder-Task` (else the agent), its run in `X-Wayfinder-Run` (else the MCP session).
 * - POST: a `tools/call` goes through McpToolCalls (steps, refusals, guidance); every other message
 *   (initialize, tools/list, notifications, responses to the server's requests, a batch without a tool
 *   call; one with a tool call is a 400) is passed on untouched, its answer (JSON or an SSE stream) back as the server sent it;
 * - GET (the server's stream) and DELETE (the end of a session) are passed on untouched.
 * A session opened by another tenant is refused (404, mcp-sessions.ts).
 * Bodies are bounded as the LLM proxy's (the request by the gateway's body limit, a JSON answer by
 * WAYFINDER_PROXY_MAX_RESPONSE_BYTES); errors are JSON-RPC error responses (api-error.ts).
 */
import { Controller, Delete, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Id } from '@wayfinder/contracts';
import { readMcpToolCall, type ChatIdentity } from '@wayfinder/ingest';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant, KeyInHeader } from '../../auth/tenant.guard';
import { badRequest, notFound } from '../../http/api-error';
import { jsonOrUndefined, readRawBody } from '../../http/request-body';
import { headerValue, wayfinderHeaders } from '../../http/wayfinder-headers';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../../tokens';
import { ProxyExchange } from '../proxy/proxy-exchange';
import { McpSessions } from './mcp-sessions';
import { McpToolCalls } from './mcp-tool-calls';

@Controller('v1/mcp')
@KeyInHeader('x-wayfinder-key')
export class McpController {
  constructor(
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly exchange: ProxyExchange,
    private readonly toolCalls: McpToolCalls,
    private readonly sessions: McpSessions,
  ) {}

  @Post(':server')
  async post(@Req() req: IncomingMessage, @Res() res: ServerResponse, @CurrentTenant() tenant: ResolvedTenant, @Param('server') server: string): Promise<void> {
    const url = this.serverUrl(server, req, tenant.tenantId);
    const body = await readRawBody(req, this.options.maxBodyBytes);
    const message = jsonOrUndefined(body.toString('utf8'));
    // A batch (MCP 2025-03-26; later revisions have none) would carry its tool calls past the door unseen.
    if (Array.isArray(message) && message.some((m) => readMcpToolCall(m) !== undefined)) throw badRequest('send each tools/call as its own request, not in a JSON-RPC batch (MCP 2025-06-18 and later have no batches)', '(root)');
    const call = readMcpToolCall(message);
    if (call) return this.toolCalls.serve(req, res, url, mcpIdentity(req, tenant.tenantId), call, body);
    // The session a server opens (its answer to `initialize`) is the tenant's.
    const answered = (status: number, headers: IncomingHttpHeaders) => {
      const opened = headers['mcp-session-id'];
      if (status >= 200 && status < 300 && typeof opened === 'string') this.sessions.opened(server, opened, tenant.tenantId);
    };
    await this.exchange.relay(req, res, { url, method: 'POST', body, timeoutMs: this.options.proxyTimeoutMs, tenantId: tenant.tenantId, answered });
  }

  @Get(':server')
  async stream(@Req() req: IncomingMessage, @Res() res: ServerResponse, @CurrentTenant() tenant: ResolvedTenant, @Param('server') server: string): Promise<void> {
    await this.exchange.relay(req, res, { url: this.serverUrl(server, req, tenant.tenantId), method: 'GET', timeoutMs: this.options.proxyTimeoutMs, tenantId: tenant.tenantId });
  }

  @Delete(':server')
  async end(@Req() req: IncomingMessage, @Res() res: ServerResponse, @CurrentTenant() tenant: ResolvedTenant, @Param('server') server: string): Promise<void> {
    const url = this.serverUrl(server, req, tenant.tenantId);
    const session = headerValue(req, 'mcp-session-id');
    const answered = (status: number) => {
      if (session !== undefined && status >= 200 && status < 300) this.sessions.ended(server, session);
    };
    await this.exchange.relay(req, res, { url, method: 'DELETE', timeoutMs: this.options.proxyTimeoutMs, tenantId: tenant.tenantId, answered });
  }

  /** The configured server's URL (the operator's, never one a tenant wrote), once the request's session is known to be the tenant's. */
  private serverUrl(server: string, req: IncomingMessage, tenantId: string): URL {
    const servers = this.options.mcpServers ?? {};
    if (!Object.hasOwn(servers, server)) throw notFound(`no MCP server "${server.slice(0, 128)}" is configured on this gateway (the operator lists them in WAYFINDER_MCP_SERVERS)`);
    const session = headerValue(req, 'mcp-session-id');
    if (session !== undefined && !this.sessions.allows(server, session, tenantId)) throw notFound(`session not found (MCP server "${server}"): start a new session`);
    return new URL(servers[server]);
  }
}

/** The agent of a tool call: Wayfinder's headers, else the MCP session (its id names both the agent and the run). */
function mcpIdentity(req: IncomingMessage, tenantId: string): ChatIdentity {
  const named = wayfinderHeaders(req);
  const session = headerValue(req, 'mcp-session-id');
  if (session !== undefined && !Id.safeParse(session).success && (named.agentId === undefined || named.runId === undefined)) throw badRequest('Mcp-Session-Id must be 1–128 characters to name the agent or run: set X-Wayfinder-Agent and X-Wayfinder-Run', 'Mcp-Session-Id');
  const agentId = named.agentId ?? session;
  if (agentId === undefined) throw badRequest('name the agent: the X-Wayfinder-Agent header (or an MCP session)', 'X-Wayfinder-Agent');
  return { tenantId, agentId, taskId: named.taskId ?? agentId, runId: named.runId ?? session ?? agentId };
}
