/**
 * One `tools/call` through the MCP door (DESIGN §12), as the Claude Code hooks treat a tool call and with
 * the pieces the LLM proxy uses (the agent's pending corrections, the upstream client under the
 * operator's egress, the ingest limit):
 * 1. a frozen agent's call, or one that breaks a hard constraint of its task's map, is not forwarded:
 *    it is answered as a tool result with `isError` and the reason, so the model can correct itself;
 * 2. otherwise the call is published as an action and forwarded; the response to it (a JSON body, or
 *    the one event of an SSE stream that answers it: progress notifications and server requests pass
 *    through untouched) becomes the observation, and pending guidance goes into that result as one more
 *    text block, once (a parallel call that read the same guidance leaves it out).
 * Steps of one agent are numbered and published in order (one at a time, so a parallel call never
 * lands behind a later seq and is taken for a duplicate); a failed observation publish is logged, the
 * tool's answer still goes back (the tool did run).
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StepEvent } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import type { EgressPolicy } from '@wayfinder/config';
import { frozenMessage, guidanceText, hardStopOf, isResponseTo, mcpActionStep, mcpObservationStep, refusedToolResult, withGuidanceBlock, type ChatIdentity, type ChatStep, type Guidance, type McpToolCall } from '@wayfinder/ingest';
import { BUS, MAP_STORE, type MapStore } from '@wayfinder/service-core';
import type { StepSeqs } from '@wayfinder/tenancy';
import { AgentCorrections } from '../../agent-corrections';
import { ApiError } from '../../http/api-error';
import { IngestLimiter } from '../../ingest-limiter';
import { jsonOrUndefined } from '../../http/request-body';
import { GATEWAY_OPTIONS, gatewayEgress, STEP_SEQS, type GatewayOptions } from '../../tokens';
import { clientHeaders, sendUpstream, upstreamHeaders, UpstreamError } from '../proxy/upstream-client';
import { SseEvents } from './sse-events';

@Injectable()
export class McpToolCalls {
  private readonly logger = new Logger('mcp-door');
  /** Per agent run, its last step's publish (the next one waits for it). */
  private readonly publishing = new Map<string, Promise<void>>();
  /** Guidance going into a result now: a parallel call that read the same pending guidance leaves it out. */
  private readonly delivering = new Set<string>();
  /** One policy object for the door's life: the keep-alive connections to the servers are kept per policy. */
  private readonly egress: EgressPolicy;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(MAP_STORE) private readonly maps: MapStore,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly limiter: IngestLimiter,
    private readonly corrections: AgentCorrections,
    @Inject(STEP_SEQS) private readonly seqs: StepSeqs,
  ) {
    this.egress = gatewayEgress(options);
  }

  async serve(req: IncomingMessage, res: ServerResponse, upstream: URL, identity: ChatIdentity, call: McpToolCall, body: Buffer): Promise<void> {
    const [pending, map] = await Promise.all([this.corrections.pending(identity.tenantId, identity.agentId), this.maps.get(identity.tenantId, identity.taskId)]);
    const hardStop = pending.frozen ? undefined : hardStopOf(map, call.name, call.arguments);
    const refusal = pending.frozen ? frozenMessage(pending.frozen) : hardStop && `Wayfinder refused this call: ${hardStop}`;
    if (refusal) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(refusedToolResult(call.id, refusal)));
      return;
    }
    // Both steps counted now: a call the tenant may not record is refused before the tool runs.
    this.limiter.take(identity.tenantId, 2);
    try {
      await this.publish(identity, (seq, now) => mcpActionStep(call, identity, seq, now));
    } catch (error) {
      throw new ApiError(503, { error: `the bus did not accept the tool call's step: ${(error as Error).message}` }, 1);
    }

    const closed = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) closed.abort();
    });
    let answer: IncomingMessage;
    try {
      answer = await sendUpstream(upstream, upstreamHeaders(req.headers, body.length), body, this.options.proxyTimeoutMs, closed.signal, this.egress, 'POST');
    } catch (error) {
      throw new ApiError(error instanceof UpstreamError && error.timedOut ? 504 : 502, { error: (error as Error).message });
    }
    // The response to the call: its observation published, the guidance added (acknowledged once it went out).
    let delivered: Guidance | undefined;
    const finish = async (response: Record<string, unknown>): Promise<Record<string, unknown>> => {
      await this.publish(identity, (seq, now) => mcpObservationStep(call, response, identity, seq, now)).catch((error: unknown) => this.logger.error(`the observation of ${identity.tenantId}/${identity.agentId}'s ${call.name} call was not published: ${(error as Error).message}`));
      const guidance = pending.guidance;
      if (!guidance || this.delivering.has(claimOf(guidance))) return response;
      const guided = withGuidanceBlock(response, `Wayfinder: ${guidanceText(guidance)}`);
      if (!guided) return response;
      this.delivering.add(claimOf(guidance));
      delivered = guidance;
      return guided;
    };
    const status = answer.statusCode ?? 502;
    const type = String(answer.headers['content-type'] ?? '');
    if (status >= 200 && status < 300 && /text\/event-stream/i.test(type)) await this.stream(answer, res, status, call, finish);
    else await this.whole(answer, res, status, /json/i.test(type) ? call : undefined, finish);
    if (!delivered) return;
    const claim = claimOf(delivered);
    try {
      await this.corrections.applied(delivered);
    } finally {
      this.delivering.delete(claim);
    }
  }

  /** A JSON answer (bounded as the LLM proxy's): the response to the call rewritten, any other body passed on. */
  private async whole(answer: IncomingMessage, res: ServerResponse, status: number, call: McpToolCall | undefined, finish: (r: Record<string, unknown>) => Promise<Record<string, unknown>>): Promise<void> {
    const max = this.options.proxyMaxResponseBytes;
    const tooLarge = () => {
      answer.destroy();
      return new ApiError(502, { error: `the MCP server's answer exceeds the gateway's limit of ${max} bytes (WAYFINDER_PROXY_MAX_RESPONSE_BYTES)` });
    };
    if (Number(answer.headers['content-length'] ?? 0) > max) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of answer) {
        size += (chunk as Buffer).length;
        if (size > max) throw tooLarge();
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError(502, { error: `the MCP server's answer broke off: ${(error as Error).message}` });
    }
    let out = Buffer.concat(chunks);
    const message = call && status >= 200 && status < 300 ? jsonOrUndefined(out.toString('utf8')) : undefined;
    if (call && isResponseTo(message, call.id)) out = Buffer.from(JSON.stringify(await finish(message)));
    res.writeHead(status, { ...clientHeaders(answer.headers), 'content-length': String(out.length) });
    res.end(out);
  }

  /** An SSE answer: passed on event by event, the event answering the call rewritten. */
  private async stream(answer: IncomingMessage, res: ServerResponse, status: number, call: McpToolCall, finish: (r: Record<string, unknown>) => Promise<Record<string, unknown>>): Promise<void> {
    res.writeHead(status, clientHeaders(answer.headers));
    const events = new SseEvents(this.options.proxyMaxResponseBytes);
    try {
      for await (const chunk of answer) {
        for (const piece of events.push(chunk as Buffer)) {
          res.write('message' in piece && isResponseTo(piece.message, call.id) ? piece.rewrite(await finish(piece.message)) : piece.text);
        }
      }
    } catch (error) {
      this.logger.warn(`the MCP server's stream broke off: ${(error as Error).message}`);
      res.destroy();
      return;
    }
    for (const piece of events.end()) res.write(piece.text);
    if (events.unread > 0) this.logger.warn(`${events.unread} event(s) of an MCP server's stream went past ${this.options.proxyMaxResponseBytes} characters: passed on unread`);
    res.end();
  }

  /** Numbers the step and publishes it after the run's previous one. */
  private publish(identity: ChatIdentity, make: (seq: number, nowMs: number) => ChatStep): Promise<void> {
    const run = `${identity.tenantId}\u0000${identity.agentId}\u0000${identity.runId}`;
    const next = (this.publishing.get(run) ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        const seq = (await this.seqs.next(identity)) as number; // no delivery given: always a seq
        const step = make(seq, Date.now());
        const parsed = StepEvent.safeParse(step);
        if (parsed.success) await this.bus.publish('wayfinder.steps.v1', [parsed.data]);
        else this.logger.warn(`a step of ${identity.tenantId}/${identity.agentId}'s MCP call (seq ${step.seq}) breaks the contract and is left out: ${parsed.error.issues[0]?.message}`);
      });
    this.publishing.set(run, next);
    void next
      .catch(() => undefined)
      .then(() => {
        if (this.publishing.get(run) === next) this.publishing.delete(run);
      });
    return next;
  }
}

const claimOf = (guidance: Guidance) => `${guidance.tenantId}\u0000${guidance.eventId}`;
