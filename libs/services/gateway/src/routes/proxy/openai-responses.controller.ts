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
import { frozenError } from '@wayfinder/ingest';
import { POLICY_BOOK, type PolicyBook } from '@wayfinder/service-core';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant, KeyInHeader } from '../../auth/tenant.guard';
import { badRequest } from '../../http/api-error';
import { parseJson, readBody } from '../../http/request-body';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../../tokens';
import { answerOfResponse, readResponsesRequest, ResponsesStreamAssembler, withInstructionsGuidance, withoutConversationItems } from './openai-responses';
import { ProxyExchange, type AnswerReader } from './proxy-exchange';
import { openAiUpstream } from './chat-completions.controller';

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
    await this.exchange.serve(req, res, tenant.tenantId, {
      ...request,
      upstream: () => openAiUpstream(this.policies, this.options, tenant.tenantId, '/responses', new URL(req.url ?? '/', 'http://gateway').search),
      frozenAnswer: frozenError,
      withGuidance: (text) => withInstructionsGuidance(request.body, text),
      without: (removed) => {
        const body = withoutConversationItems(request.body, removed);
        return { body, withGuidance: (text) => withInstructionsGuidance(body, text) };
      },
      reader: RESPONSES_ANSWERS,
    });
  }
}
