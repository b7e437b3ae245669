/**
 * `POST /v1/chat/completions`: the OpenAI-compatible LLM proxy (DESIGN §12). The tenant's key comes in
 * `X-Wayfinder-Key` (`Authorization` belongs to the upstream and passes through untouched); the agent
 * in `X-Wayfinder-Agent` or the body's `user`, its task in `X-Wayfinder-Task` (default: the agent id) and
 * optionally its run in `X-Wayfinder-Run` (default: derived from the conversation's opening). Per request:
 * 1. the new messages' steps (tool results; assistant turns the proxy did not answer) are published, in
 *    order per agent and off the request's path (ProxyExchange, shared with the other dialects);
 * 2. a frozen agent gets 423 and an OpenAI-style error saying why; pending guidance (hint, rollback,
 *    replan) goes in as a system message after the agent's own system prompt, once (acknowledged); a
 *    rollback also leaves the messages after its checkpoint out, then and after (proxy-rollback.ts);
 * 3. the request goes to the tenant's upstream (policy `proxy.upstream`, else WAYFINDER_PROXY_UPSTREAM);
 *    its answer comes back as it is (status, headers, body; a stream chunk by chunk), and the assistant's
 *    message and tool calls become steps (a stream assembled from its deltas).
 * Unreachable upstream → 502, silent upstream → 504, both in the OpenAI error shape. A non-streamed answer
 * is buffered up to WAYFINDER_PROXY_MAX_RESPONSE_BYTES (default 32 MiB) before its headers go out; past it
 * → 502 (the client gets a clear error rather than a body cut short or a proxy that holds gigabytes); a
 * stream is passed through whole and only what the assembler keeps is bounded.
 */
import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerOfCompletion, ChatStreamAssembler, frozenError, readChatRequest, withGuidance } from '@wayfinder/ingest';
import { POLICY_BOOK, type PolicyBook } from '@wayfinder/service-core';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant, KeyInHeader } from '../../auth/tenant.guard';
import { ApiError, badRequest } from '../../http/api-error';
import { parseJson, readBody } from '../../http/request-body';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../../tokens';
import { ProxyExchange, type AnswerReader } from './proxy-exchange';
import { underBase } from './upstream-client';

/**
 * Where a path of OpenAI's API goes for a tenant (policy `proxy.upstream`, else WAYFINDER_PROXY_UPSTREAM;
 * 503 when neither is set), and how long it may take.
 */
export function openAiUpstream(policies: PolicyBook, options: GatewayOptions, tenantId: string, path: string, search?: string): { url: URL; timeoutMs: number } {
  const proxy = policies.documentOf(tenantId)?.proxy;
  const upstream = proxy?.upstream ?? options.proxyUpstream;
  if (!upstream) throw new ApiError(503, { error: `no upstream is set for tenant ${tenantId}: set proxy.upstream in its policy (PUT /v1/policy) or WAYFINDER_PROXY_UPSTREAM` });
  return { url: underBase(upstream, path, search), timeoutMs: proxy?.timeoutMs ?? options.proxyTimeoutMs };
}

/** Chat completions' answers: `chat.completion` JSON, or a stream of `chat.completion.chunk`s. */
const CHAT_ANSWERS: AnswerReader = { stream: (max) => new ChatStreamAssembler(max), whole: answerOfCompletion };

@Controller('v1/chat/completions')
@KeyInHeader('x-wayfinder-key')
export class ChatCompletionsController {
  constructor(
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly exchange: ProxyExchange,
  ) {}

  /** The most bytes of one non-streamed upstream answer held at once (never above proxyMaxResponseBytes). */
  get largestBuffered(): number {
    return this.exchange.largestBuffered;
  }

  @Post()
  async post(@Req() req: IncomingMessage, @Res() res: ServerResponse, @CurrentTenant() tenant: ResolvedTenant): Promise<void> {
    const read = readChatRequest(parseJson(await readBody(req, this.options.maxBodyBytes)));
    if (!read.ok) throw badRequest(read.error, read.field);
    const request = read.value;
    await this.exchange.serve(req, res, tenant.tenantId, {
      ...request,
      upstream: () => openAiUpstream(this.policies, this.options, tenant.tenantId, '/chat/completions'),
      frozenAnswer: frozenError,
      withGuidance: (text) => ({ ...request.body, messages: withGuidance(request.messages, text) }),
      without: (removed) => {
        const messages = request.messages.filter((_, i) => !removed.has(i));
        return { body: { ...request.body, messages }, withGuidance: (text) => ({ ...request.body, messages: withGuidance(messages, text) }) };
      },
      reader: CHAT_ANSWERS,
    });
  }
}
