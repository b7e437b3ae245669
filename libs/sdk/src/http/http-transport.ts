/**
 * The gateway transport (HTTP API v1, apps/gateway/API.md): batches go to `POST /v1/steps` (429/503 are
 * retried after `Retry-After`, network failures with backoff), corrections come from
 * `GET /v1/agents/{id}/corrections` as Server-Sent Events, resumed with `Last-Event-ID` after a broken
 * connection; when the stream is not offered it long-polls the same route with `after=` and `wait=`.
 * A subscription `from: 'now'` first asks for the cursor `now` (the agent's log as it stands) and
 * follows from there, so a restarted agent is not sent what an earlier run was (but a standing freeze,
 * which that answer carries, is).
 */
import { Correction, type CognitiveMap } from '@wayfinder/contracts';
import type { AckOutcome, CorrectionDelivery, OutgoingStep, OutgoingTask, PublishOutcome, SubscribeRequest, Subscription, Transport } from '../transport';
import { SseParser } from './sse-parser';

export interface HttpTransportOptions {
  /** e.g. `http://127.0.0.1:7070` (the embedded `wayfinder start`). */
  baseUrl: string;
  /** A tenant key (`wf_…`); not needed by the local operator of an embedded gateway on loopback. */
  apiKey?: string;
  /** Attempts per request on network errors, 429 and 503 (default 8). */
  maxAttempts?: number;
  /** Seconds a long-poll waits on the gateway (default 25, at most 30). */
  longPollWaitSeconds?: number;
  /** `sse` (default: the stream, long-poll when the gateway does not offer it) or `long-poll`. */
  corrections?: 'sse' | 'long-poll';
  /** An SSE connection silent for this long (default 45 s; the gateway sends a keep-alive every 15 s) is reopened. */
  idleTimeoutMs?: number;
  /** Reconnect delays grow from this (default 250 ms) to 5 s. */
  reconnectDelayMs?: number;
  fetch?: typeof fetch;
}

/** A request the gateway answered with an error (`{error, field?, index?}`). */
export class WayfinderHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: string; field?: string; index?: number },
    readonly route: string,
  ) {
    super(`${route}: ${status} ${body.error ?? 'error'}${body.field ? ` (field ${body.field})` : ''}`);
    this.name = 'WayfinderHttpError';
  }
}

const MAX_BACKOFF_MS = 5_000;

export class HttpTransport implements Transport {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly maxAttempts: number;
  private readonly closing = new AbortController();

  constructor(private readonly options: HttpTransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
    this.maxAttempts = options.maxAttempts ?? 8;
  }

  async publish(steps: readonly OutgoingStep[]): Promise<PublishOutcome> {
    try {
      const outcome = (await this.request('POST', '/v1/steps', steps)) as PublishOutcome;
      return { accepted: outcome.accepted ?? 0, rejected: outcome.rejected ?? [] };
    } catch (error) {
      // 413: the body is over the gateway's size limit or the batch over the tenant's burst: halves go one after the other.
      if (!(error instanceof WayfinderHttpError && error.status === 413 && steps.length > 1)) throw error;
      const half = Math.ceil(steps.length / 2);
      const first = await this.publish(steps.slice(0, half));
      const second = await this.publish(steps.slice(half));
      return {
        accepted: first.accepted + second.accepted,
        rejected: [...first.rejected, ...second.rejected.map((r) => ({ ...r, index: r.index + half }))],
      };
    }
  }

  /** `POST /v1/tasks`: the gateway parses the task and answers with its map (400 naming the field when it cannot). */
  async postTask(task: OutgoingTask): Promise<CognitiveMap> {
    return ((await this.request('POST', '/v1/tasks', task)) as { map: CognitiveMap }).map;
  }

  async ack(agentId: string, correctionId: string, outcome: AckOutcome, tenantId?: string): Promise<void> {
    await this.request('POST', `${agentPath(agentId)}/corrections/${encodeURIComponent(correctionId)}/ack${tenantQuery(tenantId, '?')}`, { outcome });
  }

  /** A human unfreezes the agent after an escalation. */
  async resume(agentId: string, reason?: string, tenantId?: string): Promise<void> {
    await this.request('POST', `${agentPath(agentId)}/resume${tenantQuery(tenantId, '?')}`, reason === undefined ? {} : { reason });
  }

  /** One long-poll read: corrections after `after`, waiting up to `waitSeconds` for the first. */
  async corrections(agentId: string, after?: string, waitSeconds = 0, tenantId?: string, signal?: AbortSignal): Promise<{ corrections: Correction[]; cursor: string | undefined }> {
    const query = new URLSearchParams();
    if (after !== undefined) query.set('after', after);
    if (waitSeconds > 0) query.set('wait', String(waitSeconds));
    if (tenantId !== undefined) query.set('tenantId', tenantId);
    const qs = query.toString();
    const body = (await this.request('GET', `${agentPath(agentId)}/corrections${qs ? `?${qs}` : ''}`, undefined, signal)) as {
      corrections?: unknown[];
      cursor?: string;
    };
    return { corrections: (body.corrections ?? []).map((c) => Correction.parse(c)), cursor: body.cursor ?? after };
  }

  subscribe(request: SubscribeRequest): Subscription {
    const stop = new AbortController();
    const onClose = () => stop.abort();
    this.closing.signal.addEventListener('abort', onClose);
    const state = { cursor: request.after };
    const done = this.follow(request, state, stop.signal).finally(() => this.closing.signal.removeEventListener('abort', onClose));
    return {
      get cursor() {
        return state.cursor;
      },
      close: async () => {
        stop.abort();
        await done;
      },
    };
  }

  async close(): Promise<void> {
    this.closing.abort();
  }

  /** Keeps the agent's corrections flowing until stopped: SSE with reconnects, or long-polls. */
  private async follow(request: SubscribeRequest, state: { cursor: string | undefined }, signal: AbortSignal): Promise<void> {
    let mode = this.options.corrections ?? 'sse';
    let failures = 0;
    let placed = state.cursor !== undefined || request.from !== 'now';
    while (!signal.aborted) {
      try {
        if (!placed) {
          // `now` is asked once and kept as a cursor, so a reconnect resumes there and misses nothing in between.
          // It answers a standing freeze (the agent is still frozen): delivered first.
          const now = await this.corrections(request.agentId, 'now', 0, request.tenantId, signal);
          state.cursor = now.cursor;
          placed = true;
          for (const correction of now.corrections) {
            if (signal.aborted) return;
            await request.deliver({ correction, cursor: now.cursor ?? '' });
          }
          if (signal.aborted) return;
        }
        if (mode === 'sse') {
          const streamed = await this.stream(request, state, signal, () => (failures = 0));
          if (streamed === 'not-offered') {
            mode = 'long-poll';
            continue;
          }
        } else {
          const wait = Math.min(this.options.longPollWaitSeconds ?? 25, 30);
          const page = await this.corrections(request.agentId, state.cursor, wait, request.tenantId, signal);
          failures = 0;
          for (const correction of page.corrections) {
            if (signal.aborted) return;
            await request.deliver({ correction, cursor: page.cursor ?? '' });
          }
          state.cursor = page.cursor;
          continue;
        }
      } catch (error) {
        if (signal.aborted) return;
        // Auth and contract errors do not heal by retrying: report them and stop.
        if (error instanceof WayfinderHttpError && error.status >= 400 && error.status < 500 && error.status !== 429 && error.status !== 408) {
          request.onTransportError?.(error);
          return;
        }
        request.onTransportError?.(error instanceof Error ? error : new Error(String(error)));
      }
      failures++;
      await sleep(backoff(this.options.reconnectDelayMs ?? 250, failures), signal);
    }
  }

  /** One SSE connection; returns when it ends (the caller reconnects) or 'not-offered'. */
  private async stream(
    request: SubscribeRequest,
    state: { cursor: string | undefined },
    signal: AbortSignal,
    onOpen: () => void,
  ): Promise<'ended' | 'not-offered'> {
    const path = `${agentPath(request.agentId)}/corrections${tenantQuery(request.tenantId, '?')}`;
    const headers: Record<string, string> = { ...this.authHeaders(), accept: 'text/event-stream' };
    if (state.cursor !== undefined) headers['last-event-id'] = state.cursor;
    // A connection that dies without closing sends nothing more, not even the 15 s keep-alive: after
    // `idleTimeoutMs` of silence it is dropped and reopened.
    const connection = new AbortController();
    const stop = () => connection.abort();
    signal.addEventListener('abort', stop, { once: true });
    const idleMs = this.options.idleTimeoutMs ?? 45_000;
    let idle = setTimeout(stop, idleMs);
    const alive = () => {
      clearTimeout(idle);
      idle = setTimeout(stop, idleMs);
    };
    try {
      return await this.readStream(request, state, path, headers, connection.signal, signal, onOpen, alive);
    } catch (error) {
      if (connection.signal.aborted && !signal.aborted) throw new Error(`GET ${path}: no data for ${idleMs} ms; reconnecting`);
      throw error;
    } finally {
      clearTimeout(idle);
      signal.removeEventListener('abort', stop);
    }
  }

  private async readStream(
    request: SubscribeRequest,
    state: { cursor: string | undefined },
    path: string,
    headers: Record<string, string>,
    connection: AbortSignal,
    signal: AbortSignal,
    onOpen: () => void,
    alive: () => void,
  ): Promise<'ended' | 'not-offered'> {
    const response = await this.fetch(`${this.baseUrl}${path}`, { method: 'GET', headers, signal: connection });
    if (!response.ok) throw await httpError(response, `GET ${path}`);
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream') || !response.body) {
      await response.body?.cancel();
      return 'not-offered';
    }
    onOpen();
    const deliveries: Array<CorrectionDelivery | { unreadable: Error; cursor: string }> = [];
    const parser = new SseParser((event) => {
      if (event.event !== 'correction') return;
      const parsed = Correction.safeParse(safeJson(event.data));
      if (parsed.success) return void deliveries.push({ correction: parsed.data, cursor: event.id ?? '' });
      const reason = parsed.error.issues[0]?.message ?? 'not JSON';
      deliveries.push({ unreadable: new Error(`GET ${path}: unreadable correction at cursor ${event.id ?? '?'}: ${reason}`), cursor: event.id ?? '' });
    });
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'ended';
        alive();
        parser.feed(decoder.decode(value, { stream: true }));
        // In order, one at a time; the cursor moves only once the handler has had the correction.
        for (const delivery of deliveries.splice(0)) {
          if (signal.aborted) return 'ended';
          // An unreadable one is reported and the cursor moves past it: reconnecting would only read it again.
          if ('unreadable' in delivery) request.onTransportError?.(delivery.unreadable);
          else await request.deliver(delivery);
          if (delivery.cursor) state.cursor = delivery.cursor;
        }
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  }

  private authHeaders(): Record<string, string> {
    return this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {};
  }

  private async request(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    const route = `${method} ${path}`;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetch(`${this.baseUrl}${path}`, {
          method,
          headers: { ...this.authHeaders(), ...(body === undefined ? {} : { 'content-type': 'application/json' }), accept: 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: signal ?? this.closing.signal,
        });
      } catch (error) {
        if ((signal ?? this.closing.signal).aborted || attempt >= this.maxAttempts) {
          throw new Error(`${route}: ${(error as Error).message}${(error as { cause?: Error }).cause ? ` (${(error as { cause: Error }).cause.message})` : ''}`);
        }
        await sleep(backoff(250, attempt), signal ?? this.closing.signal);
        continue;
      }
      if ((response.status === 429 || response.status === 503) && attempt < this.maxAttempts) {
        const retryAfter = Number(response.headers.get('retry-after'));
        await response.body?.cancel();
        await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoff(250, attempt), signal ?? this.closing.signal);
        continue;
      }
      if (!response.ok) throw await httpError(response, route);
      const text = await response.text();
      return text === '' ? {} : JSON.parse(text);
    }
  }
}

function agentPath(agentId: string): string {
  return `/v1/agents/${encodeURIComponent(agentId)}`;
}

function tenantQuery(tenantId: string | undefined, lead: '?' | '&'): string {
  return tenantId === undefined ? '' : `${lead}tenantId=${encodeURIComponent(tenantId)}`;
}

async function httpError(response: Response, route: string): Promise<WayfinderHttpError> {
  const text = await response.text().catch(() => '');
  let body: { error?: string; field?: string; index?: number };
  try {
    body = JSON.parse(text);
  } catch {
    body = { error: text || response.statusText };
  }
  return new WayfinderHttpError(response.status, body, route);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function backoff(baseMs: number, attempt: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempt - 1));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
