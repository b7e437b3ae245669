/**
 * What every dialect of the LLM proxy shares (DESIGN §12): OpenAI chat completions and Anthropic
 * messages are read into the same conversation (`ChatMessage`s), so one tracker, one step derivation and
 * one publishing queue per agent serve both; and one relay sends a request upstream and brings its answer
 * back (a stream chunk by chunk, a whole answer bounded by WAYFINDER_PROXY_MAX_RESPONSE_BYTES), its
 * answer read by the dialect's reader and made steps of. Unmodelled paths (`/v1/models`, embeddings…)
 * use the relay without a reader: passed through, bounded alike, no steps.
 * - publishing is off the request's path but in order per agent (a request first waits for its agent's
 *   previous publish, so at most one is in flight); a failed publish is logged and the agent's
 *   conversation forgotten, so its next request derives every step again (the ones that did arrive are
 *   dropped downstream as duplicates: same seq, same eventId).
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Id, StepEvent } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import type { EgressPolicy } from '@wayfinder/config';
import { answerSteps, conversationRunId, ConversationTracker, FROZEN_STATUS, requestSteps, rewriteStep, type ChatAnswer, type ChatIdentity, type ChatMessage, type ChatStep, type Guidance, type PendingCorrections } from '@wayfinder/ingest';
import { BUS } from '@wayfinder/service-core';
import { AgentCorrections } from '../../agent-corrections';
import { ApiError, badRequest } from '../../http/api-error';
import { wayfinderHeaders } from '../../http/wayfinder-headers';
import { jsonOrUndefined } from '../../http/request-body';
import { IngestLimiter } from '../../ingest-limiter';
import { GATEWAY_OPTIONS, gatewayEgress, type GatewayOptions } from '../../tokens';
import { ProxyRollbacks, type Forwardable } from './proxy-rollback';
import { clientHeaders, sendUpstream, upstreamHeaders, UpstreamError } from './upstream-client';

/** A streamed answer's assembler (fed the bytes as they pass; bounded by the proxy's limit). */
export interface StreamAssembler {
  push(chunk: Uint8Array): void;
  answer(): ChatAnswer;
  readonly unreadable: number;
  readonly dropped: number;
  readonly truncated: boolean;
}

/** How a dialect reads the upstream's answer: a stream by an assembler, a whole body from its JSON. */
export interface AnswerReader {
  stream(maxChars: number): StreamAssembler;
  whole(json: unknown): ChatAnswer | undefined;
}

/** One request's place in its agent's conversation: where its answer's steps go, and what is pending. */
export interface Turn {
  readonly tenantId: string;
  readonly identity: ChatIdentity;
  readonly agentKey: string;
  readonly answerSeq: number;
  /** The request ends with a user message: its answer's first step carries `afterUser`. */
  readonly answerAfterUser: boolean;
  readonly pending: PendingCorrections;
}

export interface Relay {
  url: URL;
  method?: string;
  /** The body to send (undefined: none, as for a GET). */
  body?: Buffer;
  timeoutMs: number;
  tenantId: string;
  /** The agent's turn and the dialect's reader: the answer becomes steps. Without them it is only relayed. */
  turn?: Turn;
  reader?: AnswerReader;
  /** Called once the upstream has the request (the guidance it carries is then delivered). */
  sent?: () => Promise<void>;
  /** Called with the upstream's status and headers as they come (the MCP door learns its sessions). */
  answered?: (status: number, headers: IncomingMessage['headers']) => void;
}

/** One dialect's request through the exchange (chat completions, Responses, Anthropic Messages). */
export interface DialectRequest {
  /** The request as read: its conversation (in the chat shape), the agent named in it, and its body. */
  readonly user?: string;
  readonly messages: readonly ChatMessage[];
  readonly body: unknown;
  /** The body field that names the agent, for the identity's error messages (default `user`). */
  readonly userField?: string;
  /** Amends the request's steps before they are published (e.g. tool results marked as errors). */
  readonly amend?: (steps: ChatStep[]) => void;
  /** Where it goes and how long it may take (asked after the agent is known: its errors come first). */
  upstream(): { url: URL; timeoutMs: number };
  /** The answer to a frozen agent, in the dialect's error shape (sent with FROZEN_STATUS). */
  frozenAnswer(frozen: NonNullable<PendingCorrections['frozen']>): unknown;
  /** The body with the pending guidance added, once, where the dialect reads instructions. */
  withGuidance(text: string): unknown;
  /** The request without the conversation's messages at these indices (a rollback; proxy-rollback.ts). */
  without?(removed: ReadonlySet<number>): Forwardable;
  readonly reader: AnswerReader;
}

@Injectable()
export class ProxyExchange {
  private readonly logger = new Logger('llm-proxy');
  private readonly conversations = new ConversationTracker();
  private readonly rollbacks = new ProxyRollbacks();
  /** Per agent, its steps' publish in flight (at most one: a request waits for its agent's previous one). */
  private readonly publishing = new Map<string, Promise<void>>();
  readonly egress: EgressPolicy;
  /** The most bytes of one non-streamed upstream answer held at once (never above proxyMaxResponseBytes). */
  largestBuffered = 0;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly limiter: IngestLimiter,
    private readonly corrections: AgentCorrections,
  ) {
    this.egress = gatewayEgress(options);
  }

  /**
   * The agent of a request: `X-Wayfinder-Agent`, else the body's user field (`userField` names it in
   * errors); its task `X-Wayfinder-Task` (default the agent), its run `X-Wayfinder-Run` or the conversation's opening.
   */
  identity(req: IncomingMessage, tenantId: string, user: string | undefined, messages: readonly ChatMessage[], userField = 'user'): ChatIdentity {
    const named = wayfinderHeaders(req);
    const agentId = named.agentId ?? user;
    if (agentId === undefined || agentId === '') throw badRequest(`name the agent: the X-Wayfinder-Agent header or the request's "${userField}" field`, 'X-Wayfinder-Agent');
    if (!Id.safeParse(agentId).success) throw badRequest(`the agent id must be 1–128 characters (${userField})`, userField);
    return { tenantId, agentId, taskId: named.taskId ?? agentId, runId: conversationRunId(messages, named.runId) };
  }

  /**
   * What is new in the conversation becomes steps (published in order, off the request's path), and the
   * agent's pending corrections are read. `amend` adjusts the derived steps (a dialect's tool results
   * carry an error flag the OpenAI shape lacks).
   */
  async admit(tenantId: string, identity: ChatIdentity, messages: readonly ChatMessage[], amend?: (steps: ChatStep[]) => void): Promise<Turn> {
    const agentKey = `${tenantId}\u0000${identity.agentId}\u0000${identity.taskId}`;
    await this.publishing.get(agentKey);
    const ts = new Date().toISOString();
    const admission = this.conversations.admit(agentKey, identity.runId, messages);
    const { steps, answerSeq, answerAfterUser } = requestSteps(messages, admission.from, identity, admission.seqBase, ts, admission.answered);
    amend?.(steps);
    if (admission.rewrittenAt !== undefined) steps.unshift(rewriteStep(identity, admission.rewrittenAt, ts, admission.before, messages.length));
    if (steps.length > 0) this.limiter.take(tenantId, steps.length);
    const pending = await this.corrections.pending(tenantId, identity.agentId);
    this.conversations.commit(agentKey, identity.runId, messages, admission, steps.at(-1)?.seq);
    this.enqueue(agentKey, tenantId, steps);
    return { tenantId, identity, agentKey, answerSeq, answerAfterUser, pending };
  }

  /**
   * Sends the request upstream and brings its answer back as it is (status, headers, body; a stream chunk
   * by chunk), its answer made steps of when the relay has a turn and a reader. Unreachable upstream →
   * 502, silent upstream → 504 (the error filter gives them the route's error shape).
   */
  async relay(req: IncomingMessage, res: ServerResponse, relay: Relay): Promise<void> {
    const closed = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) closed.abort();
    });
    const started = performance.now();
    let upstreamRes: IncomingMessage;
    try {
      upstreamRes = await sendUpstream(relay.url, upstreamHeaders(req.headers, relay.body?.length), relay.body, relay.timeoutMs, closed.signal, this.egress, relay.method);
    } catch (error) {
      const timedOut = error instanceof UpstreamError && error.timedOut;
      throw new ApiError(timedOut ? 504 : 502, { error: (error as Error).message });
    }
    await relay.sent?.();
    relay.answered?.(upstreamRes.statusCode ?? 502, upstreamRes.headers);

    const who = relay.turn ? `${relay.tenantId}/${relay.turn.identity.agentId}` : relay.tenantId;
    const status = upstreamRes.statusCode ?? 502;
    const ok = status >= 200 && status < 300;
    const streamed = /text\/event-stream/i.test(String(upstreamRes.headers['content-type'] ?? ''));
    const max = this.options.proxyMaxResponseBytes;
    const assembler = streamed && ok && relay.reader ? relay.reader.stream(max) : undefined;
    // A streamed answer goes to the client chunk by chunk (headers first); a whole answer is buffered
    // (bounded) before its headers go out, so one past the bound can still be refused with a 502.
    if (streamed) res.writeHead(status, clientHeaders(upstreamRes.headers));
    const chunks: Buffer[] = [];
    let buffered = 0;
    const tooLarge = () => {
      upstreamRes.destroy();
      this.logger.warn(`upstream answer for ${who} exceeds ${max} bytes (WAYFINDER_PROXY_MAX_RESPONSE_BYTES): refused with 502`);
      return new ApiError(502, { error: `the upstream's answer exceeds the proxy's limit of ${max} bytes (WAYFINDER_PROXY_MAX_RESPONSE_BYTES); ask for a stream or a shorter answer` });
    };
    if (!streamed && Number(upstreamRes.headers['content-length'] ?? 0) > max) throw tooLarge();
    try {
      for await (const chunk of upstreamRes) {
        if (streamed) {
          assembler?.push(chunk as Buffer);
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
      this.logger.warn(`upstream answer for ${who} broke off: ${(error as Error).message}`);
      if (!streamed) throw new ApiError(502, { error: `the upstream's answer broke off: ${(error as Error).message}` });
      // Headers are out: the client sees the body break off, as it would talking to the upstream.
      res.destroy();
      return;
    }
    const latencyMs = Math.round(performance.now() - started);
    let answer: ChatAnswer | undefined;
    if (assembler) {
      answer = assembler.answer();
      if (assembler.unreadable > 0) this.logger.warn(`${assembler.unreadable} stream chunk(s) from the upstream of ${relay.tenantId} were not JSON`);
      if (assembler.dropped > 0 || assembler.truncated) this.logger.warn(`a stream from the upstream of ${relay.tenantId} went past ${max} characters: passed on whole, its steps derived from what was kept`);
    } else if (ok && !streamed && relay.reader) {
      answer = relay.reader.whole(jsonOrUndefined(Buffer.concat(chunks).toString('utf8')));
    }
    if (!streamed) res.writeHead(status, clientHeaders(upstreamRes.headers));
    res.end(streamed ? undefined : Buffer.concat(chunks));
    const turn = relay.turn;
    if (answer && turn) {
      const answered = answerSteps(answer, turn.identity, turn.answerSeq, new Date().toISOString(), latencyMs, turn.answerAfterUser);
      const last = answered.at(-1)?.seq;
      if (last !== undefined) this.enqueue(turn.agentKey, turn.tenantId, answered, () => this.conversations.answered(turn.agentKey, turn.identity.runId, last));
    }
  }

  /**
   * One agent request of any dialect: 1. what is new in the conversation becomes steps; 2. a frozen agent
   * is refused, pending guidance goes into the body once; 3. the request goes upstream and its answer
   * becomes steps too.
   */
  async serve(req: IncomingMessage, res: ServerResponse, tenantId: string, request: DialectRequest): Promise<void> {
    const identity = this.identity(req, tenantId, request.user, request.messages, request.userField);
    const upstream = request.upstream();
    const turn = await this.admit(tenantId, identity, request.messages, request.amend);
    const { frozen, guidance } = turn.pending;
    if (frozen) {
      res.writeHead(FROZEN_STATUS, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(request.frozenAnswer(frozen)));
      return;
    }
    const rollbackTurn = { tenantId, agentKey: turn.agentKey, runId: identity.runId, answerSeq: turn.answerSeq };
    const body = Buffer.from(JSON.stringify(this.rollbacks.body(rollbackTurn, request, guidance)));
    await this.relay(req, res, { ...upstream, body, tenantId, turn, reader: request.reader, ...(guidance && { sent: () => this.applied(guidance) }) });
  }

  /** The guidance went upstream with the agent's request: acknowledged, so it goes in once. */
  applied(guidance: Guidance): Promise<void> {
    return this.corrections.applied(guidance);
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
