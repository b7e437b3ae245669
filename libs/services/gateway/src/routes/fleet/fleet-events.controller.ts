/**
 * `GET /v1/fleet/events`: the key's tenant's fleet as Server-Sent Events, for the dashboard's live pages
 * and `wayfinder tail` in embedded mode (no Kafka to follow there):
 * - `event: record`, `id: <ts in ms>`: each deviation, correction, would-send, escalation, ack (resume)
 *   and false-positive mark the history store records, oldest first (steps are not sent: the `fleet`
 *   samples carry their effect);
 * - `event: fleet`: a sample of the fleet (`{ts, agents, states, openEscalations}`) at the opening and
 *   every FLEET_SAMPLE_MS, which the fleet page draws as "agents by state over time".
 * `?task=` keeps one task's records and agents; `?since=` (epoch ms or ISO time) replays the records from
 * then instead of from now (the newest MAX_REPLAY_RECORDS of them); a reconnect's `Last-Event-ID` takes
 * precedence and replays from that ms, inclusive: delivery is at least once (records sharing that ms may
 * come twice; each carries its own `id` to tell them apart), never a loss at the seam.
 * A record's ts is its event's time, and it may be recorded a little later (another instance, a slower
 * consumer): each read looks LOOKBACK_MS behind the newest record sent and sends what it had not.
 * A stream holds a slot of the same per-tenant and global caps as the correction streams (StreamSlots):
 * past them, 429 with Retry-After. Without the operations module (no history store) the route is a 404.
 */
import { Controller, Get, Inject, Optional, Query, Req, Res, type OnModuleDestroy } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Id } from '@wayfinder/contracts';
import type { HistoryKind, HistoryRecord, HistoryStore } from '@wayfinder/history';
import { fleetView } from '@wayfinder/service-operations';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant } from '../../auth/tenant.guard';
import { badRequest, notFound } from '../../http/api-error';
import { GATEWAY_HISTORY, GATEWAY_OPTIONS, type GatewayOptions } from '../../tokens';
import { StreamSlots } from '../corrections/stream-slots';

/** Between two fleet samples: the chart's resolution, and the cost of a fleet read per open stream. */
export const FLEET_SAMPLE_MS = 2_000;
/** The records a stream sends: what an operator follows (steps are many, and summarised by the samples). */
export const FLEET_EVENT_KINDS: readonly HistoryKind[] = ['deviation', 'correction', 'would-send', 'escalation', 'ack', 'false-positive'];
/** The most records one read sends (a `since` far back replays the newest of them; the store's own bounds apply too). */
const MAX_REPLAY_RECORDS = 1_000;
/** How far behind the newest record sent each read looks, for records recorded after newer ones. */
export const LOOKBACK_MS = 30_000;

@Controller('v1/fleet')
export class FleetEventsController implements OnModuleDestroy {
  /** Aborted when the app closes: open streams end, so closing the server does not wait on a browser's EventSource. */
  private readonly shuttingDown = new AbortController();

  constructor(
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly slots: StreamSlots,
    @Optional() @Inject(GATEWAY_HISTORY) private readonly history?: HistoryStore | null,
  ) {}

  @Get('events')
  async events(@Query() query: Record<string, unknown>, @Req() req: IncomingMessage, @Res() res: ServerResponse, @CurrentTenant() tenant: ResolvedTenant): Promise<void> {
    const store = this.history;
    if (!store) throw notFound('this gateway keeps no history: the fleet stream needs the operations module');
    const taskId = taskOf(query.task);
    const lastEventId = req.headers['last-event-id'];
    const resumed = typeof lastEventId === 'string' && lastEventId !== '';
    const from = resumed ? sinceOf(lastEventId, 'Last-Event-ID') : query.since === undefined || query.since === '' ? Date.now() : sinceOf(query.since, 'since');
    // Held until the connection closes, as a correction stream's.
    res.once('close', this.slots.acquire(tenant.tenantId));
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    res.write('retry: 2000\n\n');
    const closed = new AbortController();
    req.once('close', () => closed.abort());
    res.once('close', () => closed.abort());
    await this.follow(store, tenant.tenantId, taskId, from, res, AbortSignal.any([closed.signal, this.shuttingDown.signal])).catch(() => undefined);
    res.end();
  }

  onModuleDestroy(): void {
    this.shuttingDown.abort();
  }

  /** Polls the store (another instance's recorder may have written) until the client goes. */
  private async follow(store: HistoryStore, tenantId: string, taskId: string | undefined, from: number, res: ServerResponse, closed: AbortSignal): Promise<void> {
    // The ids sent within the look-back (id → ms): a later read skips them.
    let newestMs = from;
    const sent = new Map<string, number>();
    let nextSample = 0;
    let lastWrite = Date.now();
    while (!closed.aborted) {
      const now = Date.now();
      if (now >= nextSample) {
        const fleet = await fleetView(store, tenantId, now, taskId);
        res.write(`event: fleet\ndata: ${JSON.stringify({ ts: new Date(now).toISOString(), agents: fleet.agents, states: fleet.states, openEscalations: fleet.openEscalations })}\n\n`);
        nextSample = now + FLEET_SAMPLE_MS;
        lastWrite = now;
      }
      const since = Math.max(from, newestMs - LOOKBACK_MS);
      const records = await store.tenantHistory(tenantId, { kinds: FLEET_EVENT_KINDS, since, limit: MAX_REPLAY_RECORDS, ...(taskId !== undefined && { taskId }) });
      for (const record of records) {
        if (sent.has(record.id)) continue;
        const ms = Date.parse(record.ts);
        sent.set(record.id, ms);
        newestMs = Math.max(newestMs, ms);
        res.write(`id: ${ms}\nevent: record\ndata: ${JSON.stringify(record satisfies HistoryRecord)}\n\n`);
        lastWrite = Date.now();
      }
      for (const [id, ms] of sent) if (ms < newestMs - LOOKBACK_MS) sent.delete(id);
      if (Date.now() - lastWrite >= this.options.keepAliveMs) {
        res.write(': keep-alive\n\n');
        lastWrite = Date.now();
      }
      await sleep(this.options.pollMs, closed);
    }
  }
}

function taskOf(value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !Id.safeParse(value).success) throw badRequest('task must be one task id (1–128 characters)', 'task');
  return value;
}

/** Epoch ms or an ISO time, not in the future by more than a minute (a clock skew). */
function sinceOf(value: unknown, field: string): number {
  const ms = typeof value !== 'string' ? NaN : /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > Date.now() + 60_000) throw badRequest(`${field} must be a time: epoch milliseconds or an ISO 8601 time, not in the future`, field);
  return ms;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
