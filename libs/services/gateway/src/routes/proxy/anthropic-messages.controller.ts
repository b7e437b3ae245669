/**
 * `POST /v1/messages`: Anthropic's Messages API through the LLM proxy (DESIGN §12), for Claude Code
 * (`ANTHROPIC_BASE_URL` at the gateway) and the Anthropic SDKs. As chat completions: the tenant's key in
 * `X-Wayfinder-Key`, the agent in `X-Wayfinder-Agent` (or `metadata.user_id`), its task and run in
 * `X-Wayfinder-Task` / `X-Wayfinder-Run`; the agent's own `x-api-key`, `Authorization`,
 * `anthropic-version` and `anthropic-beta` pass through untouched. Per request the new messages' steps
 * (tool results, assistant turns the proxy did not answer) are published; a frozen agent gets 423 and an
 * Anthropic-shaped error; pending guidance goes into `system`, once; the answer (streamed or not) comes
 * back as the upstream sent it and its text and tool uses become steps. The upstream is the tenant's
 * policy `proxy.upstream` (a `…/v1` base, as for chat completions: `{base}/messages`), else
 * WAYFINDER_ANTHROPIC_UPSTREAM (the SDK's kind of base, default https://api.anthropic.com:
 * `{base}/v1/messages`).
 */
import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FROZEN_STATUS, frozenMessage } from '@wayfinder/ingest';
import { POLICY_BOOK, type PolicyBook } from '@wayfinder/service-core';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant, KeyInHeader } from '../../auth/tenant.guard';
import { anthropicError, badRequest } from '../../http/api-error';
import { parseJson, readBody } from '../../http/request-body';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../../tokens';
import { answerOfMessage, markFailedResults, MessagesStreamAssembler, readMessagesRequest, withoutConversationMessages, withSystemGuidance } from './anthropic-messages';
import { ProxyExchange, type AnswerReader } from './proxy-exchange';
import { underBase } from './upstream-client';

/** Messages' answers: a `message` JSON, or its stream of events. */
const MESSAGES_ANSWERS: AnswerReader = { stream: (max) => new MessagesStreamAssembler(max), whole: answerOfMessage };

/** Where a path of Anthropic's API (`/v1/messages…`) goes for a tenant, and how long it may take. */
export function anthropicUpstream(policies: PolicyBook, options: GatewayOptions, tenantId: string, path: string, search?: string): { url: URL; timeoutMs: number } {
  const proxy = policies.documentOf(tenantId)?.proxy;
  const url = proxy?.upstream ? underBase(proxy.upstream, path.replace(/^\/v1(?=\/)/, ''), search) : underBase(options.anthropicUpstream, path, search);
  return { url, timeoutMs: proxy?.timeoutMs ?? options.proxyTimeoutMs };
}

@Controller('v1/messages')
@KeyInHeader('x-wayfinder-key')
export class AnthropicMessagesController {
  constructor(
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly exchange: ProxyExchange,
  ) {}

  @Post()
  async post(@Req() req: IncomingMessage, @Res() res: ServerResponse, @CurrentTenant() tenant: ResolvedTenant): Promise<void> {
    const read = readMessagesRequest(parseJson(await readBody(req, this.options.maxBodyBytes)));
    if (!read.ok) throw badRequest(read.error, read.field);
    const request = read.value;
    await this.exchange.serve(req, res, tenant.tenantId, {
      ...request,
      userField: 'metadata.user_id',
      // Tool results marked is_error are failures, whatever they say.
      amend: (steps) => markFailedResults(request.messages, steps),
      upstream: () => anthropicUpstream(this.policies, this.options, tenant.tenantId, '/v1/messages', new URL(req.url ?? '/', 'http://x').search),
      frozenAnswer: (frozen) => anthropicError(FROZEN_STATUS, frozenMessage(frozen)),
      withGuidance: (text) => withSystemGuidance(request.body, text),
      without: (removed) => {
        const body = withoutConversationMessages(request.body, removed);
        return { body, withGuidance: (text) => withSystemGuidance(body, text) };
      },
      reader: MESSAGES_ANSWERS,
    });
  }
}
