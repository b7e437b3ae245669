/**
 * A small stand-in for the gateway in unit tests of the HTTP transport: it speaks the routes of
 * apps/gateway/API.md that the SDK uses (steps, corrections as JSON long-poll and SSE, ack) and lets a
 * test push corrections, break streams and answer 429. Not the gateway: the integration tests run the
 * real one.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Correction, StepEvent } from '@wayfinder/contracts';
import { checkStep } from '../validate-step';

interface Kept {
  cursor: string;
  correction: Correction;
}

export class ContractGateway {
  readonly steps: StepEvent[] = [];
  readonly requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];
  readonly acks: Array<{ agentId: string; correctionId: string; outcome?: string }> = [];
  /** Off: the corrections route answers JSON even to `Accept: text/event-stream` (a gateway with no stream). */
  sse = true;
  /** Batches larger than this are answered 413 (the gateway's body limit or the tenant's burst). */
  maxBatch = Number.POSITIVE_INFINITY;
  private readonly server: Server;
  private readonly kept = new Map<string, Kept[]>();
  private readonly streams = new Set<{ agentId: string; res: ServerResponse }>();
  private readonly polls = new Set<{ agentId: string; after: number; wake: () => void }>();
  private failures: Array<{ status: number; retryAfter?: number }> = [];
  private next = 1;

  constructor(private readonly tenantId = 'local') {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.dropStreams();
    for (const poll of this.polls) poll.wake();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The next requests to /v1/steps answer this status (with Retry-After when given). */
  failNext(status: number, retryAfter?: number): void {
    this.failures.push({ status, retryAfter });
  }

  push(correction: Correction): string {
    const cursor = String(this.next++).padStart(8, '0');
    const list = this.kept.get(correction.agentId) ?? [];
    list.push({ cursor, correction });
    this.kept.set(correction.agentId, list);
    for (const stream of this.streams) if (stream.agentId === correction.agentId) writeEvent(stream.res, cursor, correction);
    for (const poll of this.polls) if (poll.agentId === correction.agentId) poll.wake();
    return cursor;
  }

  /** Ends every open SSE connection, as a restart or a proxy timeout does. */
  dropStreams(): void {
    for (const stream of this.streams) stream.res.destroy();
    this.streams.clear();
  }

  get openStreams(): number {
    return this.streams.size;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const url = new URL(req.url ?? '/', 'http://x');
    const corrections = /^\/v1\/agents\/([^/]+)\/corrections$/.exec(url.pathname);
    const ack = /^\/v1\/agents\/([^/]+)\/corrections\/([^/]+)\/ack$/.exec(url.pathname);
    if (req.method === 'POST' && url.pathname === '/v1/steps') return this.postSteps(body, res);
    if (req.method === 'GET' && corrections) return this.getCorrections(decodeURIComponent(corrections[1]), url, req, res);
    if (req.method === 'POST' && ack) {
      const [agentId, correctionId] = [decodeURIComponent(ack[1]), decodeURIComponent(ack[2])];
      if (!(this.kept.get(agentId) ?? []).some((k) => k.correction.eventId === correctionId)) return json(res, 404, { error: 'no such correction' });
      this.acks.push({ agentId, correctionId, outcome: (JSON.parse(body || '{}') as { outcome?: string }).outcome });
      return json(res, 202, { acked: true });
    }
    json(res, 404, { error: `no route ${req.method} ${url.pathname}` });
  }

  private postSteps(body: string, res: ServerResponse): void {
    const failure = this.failures.shift();
    if (failure) {
      if (failure.retryAfter !== undefined) res.setHeader('retry-after', String(failure.retryAfter));
      return json(res, failure.status, { error: 'slow down' });
    }
    let events: unknown;
    try {
      events = JSON.parse(body);
    } catch {
      return json(res, 400, { error: 'body is not JSON' });
    }
    const list = Array.isArray(events) ? events : [events];
    if (list.length > this.maxBatch) return json(res, 413, { error: `a batch of ${list.length} is over the burst of ${this.maxBatch}` });
    const rejected: Array<{ index: number; error: string; field: string }> = [];
    list.forEach((raw, index) => {
      const checked = checkStep({ schema: 'wayfinder.step.v1', ...(raw as object) } as never, this.tenantId);
      if (checked.ok) this.steps.push(checked.step);
      else rejected.push({ index, error: checked.error, field: `events[${index}].${checked.field}` });
    });
    json(res, 202, { accepted: list.length - rejected.length, rejected });
  }

  private getCorrections(agentId: string, url: URL, req: IncomingMessage, res: ServerResponse): void {
    const lastEventId = req.headers['last-event-id'];
    const asked = (typeof lastEventId === 'string' ? lastEventId : undefined) ?? url.searchParams.get('after') ?? '0';
    // `now`: the agent's newest cursor, as the gateway answers it (just before a standing freeze; no resume here).
    const kept = this.kept.get(agentId) ?? [];
    const standing = kept.at(-1)?.correction.action === 'freeze' ? 2 : 1;
    const after = asked === 'now' ? Number(kept.at(-standing)?.cursor ?? 0) : Number(asked);
    const missed = () => (this.kept.get(agentId) ?? []).filter((k) => Number(k.cursor) > after);
    if (this.sse && (req.headers.accept ?? '').includes('text/event-stream')) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(': connected\n\n');
      for (const k of missed()) writeEvent(res, k.cursor, k.correction);
      const stream = { agentId, res };
      this.streams.add(stream);
      req.on('close', () => this.streams.delete(stream));
      return;
    }
    const answer = () => {
      const page = missed();
      json(res, 200, { corrections: page.map((k) => k.correction), cursor: page.at(-1)?.cursor ?? String(after).padStart(8, '0') });
    };
    const wait = Number(url.searchParams.get('wait') ?? 0);
    if (missed().length > 0 || wait === 0) return answer();
    const poll = {
      agentId,
      after,
      wake: () => {
        this.polls.delete(poll);
        clearTimeout(timer);
        answer();
      },
    };
    const timer = setTimeout(() => poll.wake(), wait * 1000);
    this.polls.add(poll);
    req.on('close', () => {
      this.polls.delete(poll);
      clearTimeout(timer);
    });
  }
}

function writeEvent(res: ServerResponse, cursor: string, correction: Correction): void {
  res.write(`id: ${cursor}\nevent: correction\ndata: ${JSON.stringify(correction)}\n\n`);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A hint as the correction engine publishes it. */
export function hintFor(agentId: string, n: number, tenantId = 'local'): Correction {
  return {
    schema: 'wayfinder.correction.v1',
    eventId: `cor-${agentId}-${n}`,
    tenantId,
    ts: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    agentId,
    taskId: 'report',
    runId: null,
    deviationIds: [`dev-${n}`],
    severity: 'mild',
    atSeq: n * 2,
    reason: 'generic_repeat',
    action: 'hint',
    hint: { text: `You called read_file with the same arguments ${n + 3} times.` },
  };
}
