/**
 * Every other path of the LLM proxy (DESIGN §12): a `/v1/...` request no route serves and that is not
 * Wayfinder's own API (`/v1/models`, `/v1/embeddings`, `/v1/files/...`, `/v1/messages/count_tokens`…)
 * is passed through to the tenant's upstream as it came (method, query, headers but the proxy's own,
 * body), its answer back as the upstream sent it, within the same egress rules and response bound as
 * chat completions; it makes no steps. `/v1/messages/...` goes to the Anthropic upstream, the rest to
 * the OpenAI one. With no upstream to pass to, the client gets a 404 in its API's error shape naming the
 * path, never Express's `Cannot POST` page. Mounted after every other route family (start-gateway.ts),
 * so it only sees what none of them serves; an unknown path under Wayfinder's own API is a plain 404.
 */
import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { POLICY_BOOK, type PolicyBook } from '@wayfinder/service-core';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant, KeyInHeader } from '../../auth/tenant.guard';
import { notFound, proxyDialectOf } from '../../http/api-error';
import { readRawBody } from '../../http/request-body';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../../tokens';
import { anthropicUpstream } from './anthropic-messages.controller';
import { ProxyExchange } from './proxy-exchange';
import { underBase } from './upstream-client';

@Controller()
@KeyInHeader('x-wayfinder-key')
export class ProxyPassthroughController {
  constructor(
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly exchange: ProxyExchange,
  ) {}

  @All('v1/*path')
  async pass(@Req() req: IncomingMessage, @Res() res: ServerResponse, @CurrentTenant() tenant: ResolvedTenant): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const { pathname, search } = new URL(req.url ?? '/', 'http://gateway');
    const dialect = proxyDialectOf(pathname);
    if (dialect === undefined) throw notFound(`no route ${method} ${pathname}`);
    let target: { url: URL; timeoutMs: number };
    if (dialect === 'anthropic') {
      target = anthropicUpstream(this.policies, this.options, tenant.tenantId, pathname, search);
    } else {
      const proxy = this.policies.documentOf(tenant.tenantId)?.proxy;
      const upstream = proxy?.upstream ?? this.options.proxyUpstream;
      if (!upstream) throw notFound(`the gateway does not serve ${method} ${pathname} itself, and no upstream is set for tenant ${tenant.tenantId} to pass it to: set proxy.upstream in its policy (PUT /v1/policy) or WAYFINDER_PROXY_UPSTREAM`);
      target = { url: underBase(upstream, pathname.replace(/^\/v1(?=\/)/, ''), search), timeoutMs: proxy?.timeoutMs ?? this.options.proxyTimeoutMs };
    }
    const hasBody = (method !== 'GET' && method !== 'HEAD') || req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    const body = hasBody ? await readRawBody(req, this.options.maxBodyBytes) : undefined;
    await this.exchange.relay(req, res, { ...target, method, ...(body !== undefined && { body }), tenantId: tenant.tenantId });
  }
}
