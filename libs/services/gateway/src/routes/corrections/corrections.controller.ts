/**
 * An agent's corrections, only ever its tenant's (the log is keyed by the key's tenant):
 * - `GET /v1/agents/:agentId/corrections?after=CURSOR&wait=SECONDS`: JSON, long-polling up to `wait`;
 *   with `Accept: text/event-stream`, Server-Sent Events with each cursor as `id` (resume with
 *   `Last-Event-ID`) and a `: keep-alive` comment while nothing comes. The cursor `now` is the agent's
 *   log as it stands (its newest cursor, `0-0` when empty), so a restarted agent skips what an earlier run
 *   was sent: the JSON answer's `cursor` is that position, and a stream opens with it as a bare `id:`.
 *   Except a standing freeze (the newest correction, not lifted by a resume): `now` is just before it, so
 *   a frozen agent restarted learns first that it is frozen;
 * - `POST /v1/agents/:agentId/corrections/:correctionId/ack`: the agent applied (or ignored) it; an
 *   agent's ack of a freeze is answered (`frozen: true`) but recorded as nothing: only a resume lifts it;
 * - `POST /v1/agents/:agentId/resume`: a human unfreezes the agent (a control event the correction
 *   engine consumes); 404 when the tenant has no corrections of that agent (nothing to resume). With the
 *   operations module mounted it also appends an `ack` history record (subject `resume`), which closes
 *   the agent's escalation in the operators' views. The agent's freezes are acknowledged, so the LLM proxy
 *   and the agent hooks (which refuse a frozen agent) let it through again.
 */
import { Controller, Get, HttpCode, Inject, Optional, Param, Post, Query, Req, Res } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTROL_SCHEMA, Id, type AgentControl, type Correction } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import type { HistoryStore } from '@wayfinder/history';
import { BUS } from '@wayfinder/service-core';
import { isCursor, type CorrectionLog, type ResolvedTenant } from '@wayfinder/tenancy';
import { z } from 'zod';
import { CurrentTenant } from '../../auth/tenant.guard';
import { ApiError, badRequest, notFound } from '../../http/api-error';
import { parseJson, readBody } from '../../http/request-body';
import { CORRECTION_LOG, GATEWAY_HISTORY, GATEWAY_OPTIONS, type GatewayOptions } from '../../tokens';
import { CorrectionWaiter, MAX_CORRECTIONS_PER_READ } from './correction-waiter';
import { StreamSlots } from './stream-slots';

const MAX_WAIT_SECONDS = 30;
const AckBody = z.object({ outcome: z.enum(['applied', 'ignored']).optional() }).strict();
const ResumeBody = z.object({ reason: z.string().max(4096).optional() }).strict();

@Controller('v1/agents/:agentId')
export class CorrectionsController {
  constructor(
    @Inject(CORRECTION_LOG) private readonly log: CorrectionLog,
    @Inject(BUS) private readonly bus: Bus,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly waiter: CorrectionWaiter,
    private readonly slots: StreamSlots,
    @Optional() @Inject(GATEWAY_HISTORY) private readonly history?: HistoryStore | null,
  ) {}

  @Get('corrections')
  async corrections(
    @Param('agentId') agentId: string,
    @Query() query: Record<string, unknown>,
    @Req() req: IncomingMessage,
    @Res() res: ServerResponse,
    @CurrentTenant() tenant: ResolvedTenant,
  ): Promise<void> {
    checkAgentId(agentId);
    const lastEventId = req.headers['last-event-id'];
    const asked = cursorOf(typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : query.after, typeof lastEventId === 'string' && lastEventId !== '' ? 'Last-Event-ID' : 'after');
    const cursor = asked === NOW ? await this.nowCursor(tenant.tenantId, agentId) : asked;
    if (/text\/event-stream/.test(String(req.headers.accept ?? ''))) {
      // Held until the connection closes (the response's 'close' comes after its end, or when the client goes).
      res.once('close', this.slots.acquire(tenant.tenantId));
      return this.stream(tenant.tenantId, agentId, cursor, req, res, asked === NOW);
    }
    const waitMs = waitOf(query.wait) * 1000;
    // A waiting long-poll holds a connection like a stream does: it counts against the same caps.
    if (waitMs > 0) res.once('close', this.slots.acquire(tenant.tenantId));
    const aborted = new AbortController();
    req.once('close', () => aborted.abort());
    const found = await this.waiter.next(tenant.tenantId, agentId, cursor, waitMs, aborted.signal);
    const body: { corrections: Correction[]; cursor: string } = { corrections: found.map((f) => f.correction), cursor: found.at(-1)?.cursor ?? cursor ?? '0-0' };
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(body));
  }

  @Post('corrections/:correctionId/ack')
  @HttpCode(202)
  async ack(@Param('agentId') agentId: string, @Param('correctionId') correctionId: string, @Req() req: IncomingMessage, @CurrentTenant() tenant: ResolvedTenant): Promise<{ acked: true; frozen?: true }> {
    checkAgentId(agentId);
    const body = AckBody.safeParse(parseJson(await readBody(req, 64 * 1024)) ?? {});
    if (!body.success) throw badRequest(`outcome must be "applied" or "ignored"`, 'outcome');
    // The proxy and the hooks read an acknowledged freeze as lifted: the agent may not lift its own freeze.
    const logged = await this.log.find(tenant.tenantId, agentId, correctionId);
    if (logged?.correction.action === 'freeze') return { acked: true, frozen: true };
    const acked = await this.log.ack(tenant.tenantId, agentId, correctionId, body.data.outcome ?? 'applied');
    if (!acked) throw notFound(`agent ${agentId} has no correction ${correctionId}`);
    return { acked: true };
  }

  @Post('resume')
  @HttpCode(202)
  async resume(@Param('agentId') agentId: string, @Req() req: IncomingMessage, @CurrentTenant() tenant: ResolvedTenant): Promise<{ resumed: true }> {
    checkAgentId(agentId);
    const body = ResumeBody.safeParse(parseJson(await readBody(req, 64 * 1024)) ?? {});
    if (!body.success) throw badRequest('reason must be a string of at most 4096 characters', 'reason');
    const known = await this.log.after(tenant.tenantId, agentId, undefined, 1);
    if (known.length === 0) throw notFound(`no agent ${agentId} with corrections`);
    const control: AgentControl = {
      schema: CONTROL_SCHEMA,
      eventId: randomUUID(),
      tenantId: tenant.tenantId,
      ts: new Date().toISOString(),
      agentId,
      action: 'resume',
      ...(body.data.reason !== undefined && { reason: body.data.reason }),
    };
    try {
      await this.bus.publish('wayfinder.controls.v1', [control]);
    } catch (error) {
      throw new ApiError(503, { error: `the bus did not accept the resume: ${(error as Error).message}` }, 1);
    }
    await this.acknowledgeFreezes(tenant.tenantId, agentId);
    if (this.history) {
      const entry = await this.history.agent(tenant.tenantId, agentId);
      await this.history.append([
        {
          kind: 'ack',
          subject: 'resume',
          id: `ack:resume:${control.eventId}`,
          tenantId: tenant.tenantId,
          agentId,
          taskId: entry?.taskId ?? known[0].correction.taskId,
          runId: entry?.runId ?? null,
          ts: control.ts,
          correctionId: null,
          outcome: null,
          note: body.data.reason ?? null,
        },
      ]);
    }
    return { resumed: true };
  }

  private async acknowledgeFreezes(tenantId: string, agentId: string): Promise<void> {
    let cursor: string | undefined;
    for (;;) {
      const page = await this.log.after(tenantId, agentId, cursor, MAX_CORRECTIONS_PER_READ);
      for (const { correction } of page) {
        if (correction.action === 'freeze' && (await this.log.ackOf(tenantId, agentId, correction.eventId)) === undefined) await this.log.ack(tenantId, agentId, correction.eventId, 'applied');
      }
      if (page.length < MAX_CORRECTIONS_PER_READ) return;
      cursor = page[page.length - 1].cursor;
    }
  }

  /**
   * What `now` stands for: the agent's newest cursor (`0-0` when its log is empty), or the one before
   * its newest correction when that is a freeze no resume lifted (delivered first, then).
   */
  private async nowCursor(tenantId: string, agentId: string): Promise<string> {
    let cursor = '0-0';
    let before = '0-0';
    let newest: Correction | undefined;
    for (;;) {
      const page = await this.log.after(tenantId, agentId, cursor, MAX_CORRECTIONS_PER_READ);
      if (page.length > 0) {
        before = page.length > 1 ? page[page.length - 2].cursor : cursor;
        cursor = page[page.length - 1].cursor;
        newest = page[page.length - 1].correction;
      }
      if (page.length < MAX_CORRECTIONS_PER_READ) break;
    }
    const standingFreeze = newest?.action === 'freeze' && (await this.log.ackOf(tenantId, agentId, newest.eventId)) === undefined;
    return standingFreeze ? before : cursor;
  }

  private async stream(tenantId: string, agentId: string, from: string | undefined, req: IncomingMessage, res: ServerResponse, announce = false): Promise<void> {
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    // From `now`: a bare id sets the client's last event id, so a reconnect resumes from this position, not a later `now`.
    res.write(announce ? `retry: 1000\nid: ${from}\n\n` : 'retry: 1000\n\n');
    const closed = new AbortController();
    req.once('close', () => closed.abort());
    res.once('close', () => closed.abort());
    let cursor = from;
    while (!closed.signal.aborted) {
      const found = await this.waiter.next(tenantId, agentId, cursor, this.options.keepAliveMs, closed.signal);
      if (closed.signal.aborted) break;
      if (found.length === 0) {
        res.write(': keep-alive\n\n');
        continue;
      }
      for (const { cursor: id, correction } of found) res.write(`id: ${id}\nevent: correction\ndata: ${JSON.stringify(correction)}\n\n`);
      cursor = found[found.length - 1].cursor;
    }
    res.end();
  }
}

function checkAgentId(agentId: string): void {
  if (!Id.safeParse(agentId).success) throw badRequest('agentId must be 1–128 characters', 'agentId');
}

/** The cursor that stands for the agent's log as it is when asked. */
const NOW = 'now';

function cursorOf(value: unknown, field: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === NOW) return NOW;
  if (typeof value !== 'string' || !isCursor(value)) throw badRequest(`${field} must be a cursor from an earlier answer (like 1767225600000-0) or now`, field);
  return value;
}

function waitOf(value: unknown): number {
  if (value === undefined || value === '') return 0;
  const n = Number(value);
  if (typeof value !== 'string' || !Number.isFinite(n) || n < 0 || n > MAX_WAIT_SECONDS) throw badRequest(`wait must be a number of seconds from 0 to ${MAX_WAIT_SECONDS}`, 'wait');
  return n;
}
