/**
 * `POST /v1/responses`: OpenAI's Responses API through the LLM proxy (DESIGN §12), for Codex CLI and the
 * `openai` clients' `responses.create`. As chat completions: the tenant's key in `X-Wayfinder-Key`, the
 * agent in `X-Wayfinder-Agent` (or the body's `user`), its task and run in `X-Wayfinder-Task` /
 * `X-Wayfinder-Run`; `Authorization` passes through untouched. Per request the new input items' steps
 * (function call outputs, assistant turns the proxy did not answer) are published; a frozen agent gets
 * 423 in the OpenAI error shape; pending guidance is appended to `instructions`, once; the answer
 * (streamed or not) comes back as the upstream sent it and its text and function calls become steps.
 * The upstream is the chat completions one (`{base}/responses`).
 */
import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { frozenError, FROZEN_STATUS, guidanceText } from '@wayfinder/ingest';
import { POLICY_BOOK, type PolicyBook } from '@wayfinder/service-core';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant, KeyInHeader } from '../../auth/tenant.guard';
import { ApiError, badRequest } from '../../http/api-error';
import { parseJson, readBody } from '../../http/request-body';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../../tokens';
import { answerOfResponse, readResponsesRequest, ResponsesStreamAssembler, withInstructionsGuidance } from './openai-responses';
import { ProxyExchange, type AnswerReader } from './proxy-exchange';
import { underBase } from './upstream-client';

/** Responses' answers: a `response` JSON, or its stream of events. */
const RESPONSES_ANSWERS: AnswerReader = { stream: (max) => new ResponsesStreamAssembler(max), whole: answerOfResponse };

@Controller('v1/responses')
@KeyInHeader('x-wayfinder-key')
export class OpenAiResponsesController {
  constructor(
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly exchange: ProxyExchange,
  ) {}

  @Post()
  async post(@Req() req: IncomingMessage, @Res() res: ServerResponse, @CurrentTenant() tenant: ResolvedTenant): Promise<void> {
    const read = readResponsesRequest(parseJson(await readBody(req, this.options.maxBodyBytes)));
    if (!read.ok) throw badRequest(read.error, read.field);
    const request = read.value;
    const identity = this.exchange.identity(req, tenant.tenantId, request.user, request.messages);
    const proxy = this.policies.documentOf(tenant.tenantId)?.proxy;
    const upstream = proxy?.upstream ?? this.options.proxyUpstream;
    if (!upstream) throw new ApiError(503, { error: `no upstream is set for tenant ${tenant.tenantId}: set proxy.upstream in its policy (PUT /v1/policy) or WAYFINDER_PROXY_UPSTREAM` });

    // 1. What is new in the conversation.
    const turn = await this.exchange.admit(tenant.tenantId, identity, request.messages);

    // 2. Corrections.
    const { frozen, guidance } = turn.pending;
    if (frozen) {
      res.writeHead(FROZEN_STATUS, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(frozenError(frozen)));
      return;
    }
    const body = Buffer.from(JSON.stringify(guidance ? withInstructionsGuidance(request.body, guidanceText(guidance)) : request.body));

    // 3. Upstream.
    await this.exchange.relay(req, res, {
      url: underBase(upstream, '/responses', new URL(req.url ?? '/', 'http://gateway').search),
      body,
      timeoutMs: proxy?.timeoutMs ?? this.options.proxyTimeoutMs,
      tenantId: tenant.tenantId,
      turn,
      reader: RESPONSES_ANSWERS,
      ...(guidance && { sent: () => this.exchange.applied(guidance) }),
    });
  }
}
