/**
 * The query API (DESIGN §13, GATEWAY-API.md): `GET /v1/agents?q=&state=&task=&detector=&sort=&limit=&cursor=`, `GET /v1/agents/:id/timeline`,
 * `GET /v1/escalations?open=true`, `GET /v1/fleet`, `GET /v1/tenants`, `POST /v1/deviations/:id/false-positive`. The tenant is
 * always the request's TenantContext; another tenant's agent or deviation is a 404, as if absent.
 */
import { Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import type { Bus } from '@wayfinder/bus';
import type { PolicyBook } from '@wayfinder/service-core';
import type { FalsePositiveRecord, HistoryStore } from '@wayfinder/history';
import { FalsePositiveShares } from './false-positive-shares';
import { agentsQueryOf } from './agents-query-params';
import { agentTimeline, fleetView, pageOfAgents, listEscalations, readableTenants } from './history-queries';
import { httpError } from './http-errors';
import { suppressionOf } from './suppression';
import { requireOperator, Tenant, type TenantContext } from './tenant-context';
import { HISTORY_STORE, OPERATIONS_BUS, OPERATIONS_POLICIES } from './tokens';

const DEFAULT_SUPPRESS_MS = 60 * 60 * 1000;

@Controller('v1')
export class OperationsController {
  constructor(
    @Inject(HISTORY_STORE) private readonly store: HistoryStore,
    @Inject(OPERATIONS_BUS) private readonly bus: Bus,
    @Inject(OPERATIONS_POLICIES) private readonly policies: PolicyBook,
    private readonly shares: FalsePositiveShares,
  ) {}

  /** Without `limit` or `cursor`: every matching agent in one answer (`nextCursor` null). */
  @Get('agents')
  async agents(@Tenant() tenant: TenantContext, @Query() query: Record<string, unknown>) {
    const asked = agentsQueryOf(query);
    if (typeof asked === 'string') throw httpError(400, asked.slice(asked.indexOf(' ') + 1), asked.slice(0, asked.indexOf(' ')));
    try {
      return await pageOfAgents(this.store, tenant.tenantId, asked);
    } catch (error) {
      if (error instanceof RangeError) throw httpError(400, error.message, 'cursor');
      throw error;
    }
  }

  @Get('agents/:agentId/timeline')
  async timeline(@Tenant() tenant: TenantContext, @Param('agentId') agentId: string) {
    const timeline = await agentTimeline(this.store, tenant.tenantId, agentId);
    if (!timeline) throw httpError(404, `no agent ${agentId} in this tenant`, 'agentId');
    return timeline;
  }

  @Get('escalations')
  async escalations(@Tenant() tenant: TenantContext, @Query('open') open?: string) {
    if (open !== undefined && open !== 'true' && open !== 'false') throw httpError(400, 'open must be true or false', 'open');
    return { escalations: await listEscalations(this.store, tenant.tenantId, open === undefined ? {} : { open: open === 'true' }) };
  }

  @Get('fleet')
  async fleet(@Tenant() tenant: TenantContext) {
    return fleetView(this.store, tenant.tenantId);
  }

  /** The tenants this key reads: its own; for the local operator with no ?tenantId=, every tenant with history. */
  @Get('tenants')
  async tenants(@Tenant() tenant: TenantContext, @Query('tenantId') named?: string) {
    return { tenants: await readableTenants(this.store, tenant, named) };
  }

  /** Suppresses the deviation's pattern (detector, tool, argsHash) for its agent for the policy's time. */
  @Post('deviations/:deviationId/false-positive')
  @HttpCode(202)
  async falsePositive(@Tenant() tenant: TenantContext, @Param('deviationId') deviationId: string) {
    requireOperator(tenant);
    const deviation = await this.store.get(tenant.tenantId, `deviation:${deviationId}`);
    if (!deviation || deviation.kind !== 'deviation') throw httpError(404, `no deviation ${deviationId} in this tenant`, 'deviationId');
    const now = Date.now();
    const ms = this.policies.tenant(tenant.tenantId)?.falsePositiveSuppressMs ?? DEFAULT_SUPPRESS_MS;
    const mark: FalsePositiveRecord = {
      id: `false-positive:${deviationId}`, kind: 'false-positive', tenantId: tenant.tenantId, agentId: deviation.agentId, taskId: deviation.taskId, runId: deviation.runId,
      ts: new Date(now).toISOString(), deviationId, detector: deviation.detector, tool: deviation.tool, argsHash: deviation.argsHash, until: new Date(now + ms).toISOString(),
    };
    await this.store.append([mark]);
    const marks = (await this.store.agentHistory(tenant.tenantId, deviation.agentId, { kinds: ['false-positive'] })) as FalsePositiveRecord[];
    await this.bus.publish('wayfinder.suppressions.v1', [suppressionOf(tenant.tenantId, deviation.agentId, marks, now)]);
    await this.shares.marked(tenant.tenantId, deviation.detector);
    return { markedFalsePositive: true, until: mark.until, pattern: { detector: mark.detector, tool: mark.tool, argsHash: mark.argsHash } };
  }
}
