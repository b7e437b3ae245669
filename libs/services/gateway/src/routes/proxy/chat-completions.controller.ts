/**
 * `POST /v1/chat/completions`: the OpenAI-compatible LLM proxy (DESIGN §12). The tenant's key comes in
 * `X-Wayfinder-Key` (`Authorization` belongs to the upstream and passes through untouched); the agent
 * in `X-Wayfinder-Agent` or the body's `user`, its task in `X-Wayfinder-Task` (default: the agent id) and
 * optionally its run in `X-Wayfinder-Run` (default: derived from the conversation's opening). Per request:
 * 1. the new messages' steps (tool results; assistant turns the proxy did not answer) are published;
 *    publishing is off the request's path but in order per agent (a request first waits for its agent's
 *    previous publish, so at most one is in flight); a failed publish is logged and the agent's
 *    conversation forgotten, so its next request derives every step again (the ones that did arrive are
 *    dropped downstream as duplicates: same seq, same eventId);
 * 2. a frozen agent gets 423 and an OpenAI-style error saying why; pending guidance (hint, rollback,
 *    replan) goes in as a system message after the agent's own system prompt, once (acknowledged);
 * 3. the request goes to the tenant's upstream (policy `proxy.upstream`, else WAYFINDER_PROXY_UPSTREAM);
 *    its answer comes back as it is (status, headers, body; a stream chunk by chunk), and the assistant's
 *    message and tool calls become steps (a stream assembled from its deltas).
 * Unreachable upstream → 502, silent upstream → 504, both in the OpenAI error shape. A non-streamed answer
 * is buffered up to WAYFINDER_PROXY_MAX_RESPONSE_BYTES (default 32 MiB) before its headers go out; past it
 * → 502 (the client gets a clear error rather than a body cut short or a proxy that holds gigabytes); a
 * stream is passed through whole and only what the assembler keeps is bounded.
 */
import { Controller, Inject, Logger, Post, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Id, StepEvent } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import {
  answerOfCompletion,
  answerSteps,
  ChatStreamAssembler,
  conversationRunId,
  ConversationTracker,
  frozenError,
  FROZEN_STATUS,
  guidanceText,
  readChatRequest,
  requestSteps,
  rewriteStep,
  withGuidance,
  type ChatAnswer,
  type ChatIdentity,
  type ChatStep,
} from '@wayfinder/ingest';
import { BUS, POLICY_BOOK, type PolicyBook } from '@wayfinder/service-core';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant, KeyInHeader } from '../../auth/tenant.guard';
import { AgentCorrections } from '../../agent-corrections';
import { ApiError, badRequest } from '../../http/api-error';
import { parseJson, readBody } from '../../http/request-body';
import { IngestLimiter } from '../../ingest-limiter';
import type { EgressPolicy } from '@wayfinder/config';
import { GATEWAY_OPTIONS, gatewayEgress, type GatewayOptions } from '../../tokens';
import { chatCompletionsUrl, clientHeaders, sendUpstream, upstreamHeaders, UpstreamError } from './upstream-client';

@Controller('v1/chat/completions')
@KeyInHeader('x-wayfinder-key')
export class ChatCompletionsController {
  private readonly logger = new Logger('llm-proxy');
  private readonly conversations = new ConversationTracker();
  /** Per agent, its steps' publish in flight (at most one: a request waits for its agent's previous one). */
  private readonly publishing = new Map<string, Promise<void>>();
  /** The most bytes of one non-streamed upstream answer held at once (never above proxyMaxResponseBytes). */
  largestBuffered = 0;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly limiter: IngestLimiter,
    private readonly corrections: AgentCorrections,
  ) {
    this.egress = gatewayEgress(options);
  }

  private readonly egress: EgressPolicy;

  @Post()
  async post(@Req() req: IncomingMessage, @Res() res: ServerResponse, @CurrentTenant() tenant: ResolvedTenant): Promise<void> {
    const read = readChatRequest(parseJson(await readBody(req, this.options.maxBodyBytes)));
    if (!read.ok) throw badRequest(read.error, read.field);
    const request = read.value;
    const identity = identityOf(req, tenant.tenantId, request.user, request.messages);
    const proxy = this.policies.documentOf(tenant.tenantId)?.proxy;
    const upstream = proxy?.upstream ?? this.options.proxyUpstream;
    if (!upstream) throw new ApiError(503, { error: `no upstream is set for tenant ${tenant.tenantId}: set proxy.upstream in its policy (PUT /v1/policy) or WAYFINDER_PROXY_UPSTREAM` });
    const timeoutMs = proxy?.timeoutMs ?? this.options.proxyTimeoutMs;

    // 1. What is new in the conversation.
    const agentKey = `${tenant.tenantId}\u0000${identity.agentId}\u0000${identity.taskId}`;
    await this.publishing.get(agentKey);
    const ts = new Date().toISOString();
    const admission = this.conversations.admit(agentKey, identity.runId, request.messages);
    const { steps, answerSeq } = requestSteps(request.messages, admission.from, identity, admission.seqBase, ts, admission.answered);
    if (admission.rewrittenAt !== undefined) steps.unshift(rewriteStep(identity, admission.rewrittenAt, ts, admission.before, request.messages.length));
    if (steps.length > 0) this.limiter.take(tenant.tenantId, steps.length);
    const pending = await this.corrections.pending(tenant.tenantId, identity.agentId);
    this.conversations.commit(agentKey, identity.runId, request.messages, admission, steps.at(-1)?.seq);
    this.enqueue(agentKey, tenant.tenantId, steps);

    // 2. Corrections.
    if (pending.frozen) {
      res.writeHead(FROZEN_STATUS, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(frozenError(pending.frozen)));
      return;
    }
    const messages = pending.guidance ? withGuidance(request.messages, guidanceText(pending.guidance)) : request.messages;
    const body = Buffer.from(JSON.stringify(pending.guidance ? { ...request.body, messages } : request.body));

    // 3. Upstream.
    const closed = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) closed.abort();
    });
    const started = performance.now();
    let upstreamRes: IncomingMessage;
    try {
      upstreamRes = await sendUpstream(chatCompletionsUrl(upstream), upstreamHeaders(req.headers, body.length), body, timeoutMs, closed.signal, this.egress);
    } catch (error) {
      const timedOut = error instanceof UpstreamError && error.timedOut;
      throw new ApiError(timedOut ? 504 : 502, { error: (error as Error).message });
    }
    if (pending.guidance) await this.corrections.applied(pending.guidance);

    const ok = (upstreamRes.statusCode ?? 500) >= 200 && (upstreamRes.statusCode ?? 500) < 300;
    const streamed = ok && /text\/event-stream/i.test(String(upstreamRes.headers['content-type'] ?? ''));
    const max = this.options.proxyMaxResponseBytes;
    const assembler = streamed ? new ChatStreamAssembler(max) : undefined;
    // A streamed answer goes to the client chunk by chunk (headers first); a whole answer is buffered
    // (bounded) before its headers go out, so one past the bound can still be refused with a 502.
    if (assembler) res.writeHead(upstreamRes.statusCode ?? 502, clientHeaders(upstreamRes.headers));
    const chunks: Buffer[] = [];
    let buffered = 0;
    const tooLarge = () => {
      upstreamRes.destroy();
      this.logger.warn(`upstream answer for ${tenant.tenantId}/${identity.agentId} exceeds ${max} bytes (WAYFINDER_PROXY_MAX_RESPONSE_BYTES): refused with 502`);
      return new ApiError(502, { error: `the upstream's answer exceeds the proxy's limit of ${max} bytes (WAYFINDER_PROXY_MAX_RESPONSE_BYTES); ask for a stream or a shorter answer` });
    };
    if (!assembler && Number(upstreamRes.headers['content-length'] ?? 0) > max) throw tooLarge();
    try {
      for await (const chunk of upstreamRes) {
        if (assembler) {
          assembler.push(chunk as Buffer);
          res.write(chunk);
          continue;
        }
        buffered += (chunk as Buffer).length;
        if (buffered > max) throw tooLarge();
        chunks.push(chunk as Buffer);
        if (buffered > this.largestBuffered) this.largestBuffered = buffered;
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      this.logger.warn(`upstream answer for ${tenant.tenantId}/${identity.agentId} broke off: ${(error as Error).message}`);
      if (!assembler) throw new ApiError(502, { error: `the upstream's answer broke off: ${(error as Error).message}` });
      // Headers are out: the client sees the body break off, as it would talking to the upstream.
      res.destroy();
      return;
    }
    const latencyMs = Math.round(performance.now() - started);
    let answer: ChatAnswer | undefined;
    if (assembler) {
      answer = assembler.answer();
      if (assembler.unreadable > 0) this.logger.warn(`${assembler.unreadable} stream chunk(s) from the upstream of ${tenant.tenantId} were not JSON`);
      if (assembler.dropped > 0 || assembler.truncated) this.logger.warn(`a stream from the upstream of ${tenant.tenantId} went past ${max} characters: passed on whole, its steps derived from what was kept`);
    } else if (ok) {
      answer = answerOfCompletion(safeJson(Buffer.concat(chunks).toString('utf8')));
    }
    if (!assembler) res.writeHead(upstreamRes.statusCode ?? 502, clientHeaders(upstreamRes.headers));
    res.end(assembler ? undefined : Buffer.concat(chunks));
    if (answer) {
      const answered = answerSteps(answer, identity, answerSeq, new Date().toISOString(), latencyMs);
      const last = answered.at(-1)?.seq;
      if (last !== undefined) this.enqueue(agentKey, tenant.tenantId, answered, () => this.conversations.answered(agentKey, identity.runId, last));
    }
  }

  /** Publishes after the agent's previous steps; on failure the agent's conversation is derived again next time. */
  private enqueue(agentKey: string, tenantId: string, steps: ChatStep[], then?: () => void): void {
    if (steps.length === 0) return;
    const previous = this.publishing.get(agentKey) ?? Promise.resolve();
    const next = previous
      .then(() => this.publish(tenantId, steps))
      .then(then, (error: unknown) => {
        this.conversations.forget(agentKey);
        this.logger.error(`${steps.length} step(s) of ${tenantId}/${steps[0].agentId} were not published; the agent's next request derives them again: ${(error as Error).message}`);
      });
    this.publishing.set(agentKey, next);
    void next.then(() => {
      if (this.publishing.get(agentKey) === next) this.publishing.delete(agentKey);
    });
  }

  /** Checks the steps against the contract and publishes them. */
  private async publish(tenantId: string, steps: ChatStep[]): Promise<void> {
    const valid: StepEvent[] = [];
    for (const step of steps) {
      const parsed = StepEvent.safeParse(step);
      if (parsed.success) valid.push(parsed.data);
      else this.logger.warn(`a derived step of ${tenantId}/${step.agentId} (seq ${step.seq}) breaks the contract and is left out: ${parsed.error.issues[0]?.message}`);
    }
    if (valid.length === 0) return;
    await this.bus.publish('wayfinder.steps.v1', valid);
  }
}

function identityOf(req: IncomingMessage, tenantId: string, user: string | undefined, messages: Parameters<typeof conversationRunId>[0]): ChatIdentity {
  const header = (name: string): string | undefined => {
    const value = req.headers[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const fromHeader = header('x-wayfinder-agent');
  const agentId = fromHeader ?? user;
  if (agentId === undefined || agentId === '') throw badRequest('name the agent: the X-Wayfinder-Agent header or the request\'s "user" field', 'X-Wayfinder-Agent');
  if (!Id.safeParse(agentId).success) throw badRequest(`the agent id must be 1–128 characters (${fromHeader ? 'X-Wayfinder-Agent' : 'user'})`, fromHeader ? 'X-Wayfinder-Agent' : 'user');
  const taskId = header('x-wayfinder-task') ?? agentId;
  if (!Id.safeParse(taskId).success) throw badRequest('X-Wayfinder-Task must be 1–128 characters', 'X-Wayfinder-Task');
  const run = header('x-wayfinder-run');
  if (run !== undefined && !Id.safeParse(run).success) throw badRequest('X-Wayfinder-Run must be 1–128 characters', 'X-Wayfinder-Run');
  return { tenantId, agentId, taskId, runId: conversationRunId(messages, run) };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
