/**
 * `POST /v1/agents/:agentId/anchors/:anchorId`: a person confirms or rejects a change of a task's anchor
 * (dynamic anchors). The body is an `AnchorDecisionRequest`; the gateway publishes it as a
 * `wayfinder.anchor-change.v1` (`confirmed` or `rejected`, source `api`) on `wayfinder.anchor-changes.v1`,
 * where the task-parser applies a confirmation as the map's next version. The task-parser keeps no
 * pending proposals, so an accept must say what the anchor becomes (`to`: 400 otherwise). The task and
 * the anchor are looked up in the key's tenant's maps: another tenant's task or an unknown anchor → 404.
 */
import { Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ANCHOR_CHANGE_SCHEMA, AnchorChange, AnchorDecisionRequest, Id } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import { BUS, MAP_STORE, type MapStore } from '@wayfinder/service-core';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant } from '../../auth/tenant.guard';
import { ApiError, badRequest, notFound, zodProblem } from '../../http/api-error';
import { parseJson, readBody } from '../../http/request-body';

export interface AnchorDecisionAnswer {
  kind: 'confirmed' | 'rejected';
  taskId: string;
  anchorId: string;
  proposalId: string;
}

@Controller('v1/agents/:agentId/anchors')
export class AnchorsController {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(MAP_STORE) private readonly maps: MapStore,
  ) {}

  @Post(':anchorId')
  @HttpCode(202)
  async decide(@Param('agentId') agentId: string, @Param('anchorId') anchorId: string, @Req() req: IncomingMessage, @CurrentTenant() tenant: ResolvedTenant): Promise<AnchorDecisionAnswer> {
    if (!Id.safeParse(agentId).success) throw badRequest('agentId must be 1–128 characters', 'agentId');
    if (!Id.safeParse(anchorId).success) throw badRequest('anchorId must be 1–128 characters', 'anchorId');
    const parsed = AnchorDecisionRequest.safeParse(parseJson(await readBody(req, 64 * 1024)) ?? {});
    if (!parsed.success) {
      const problem = zodProblem(parsed.error);
      throw badRequest(problem.error, problem.field);
    }
    const decision = parsed.data;
    if (decision.decision === 'accept' && (decision.to === undefined || Object.keys(decision.to).length === 0)) {
      throw badRequest('to: an accept must say what the anchor becomes (text, target, unit or comparator)', 'to');
    }
    const map = await this.maps.get(tenant.tenantId, decision.taskId);
    if (!map) throw notFound(`no task ${decision.taskId}`);
    if (!map.anchors.some((a) => a.id === anchorId)) throw notFound(`task ${decision.taskId} has no anchor ${anchorId}`);
    const kind = decision.decision === 'accept' ? 'confirmed' : 'rejected';
    const proposalId = decision.proposalId ?? `api-${randomUUID()}`;
    const change = AnchorChange.parse({
      schema: ANCHOR_CHANGE_SCHEMA,
      eventId: `${proposalId}:${kind}`,
      tenantId: tenant.tenantId,
      ts: new Date().toISOString(),
      taskId: decision.taskId,
      agentId,
      anchorId,
      proposalId,
      kind,
      to: decision.to ?? {},
      reason: decision.reason ?? (kind === 'confirmed' ? 'confirmed through the API' : 'rejected through the API'),
      source: 'api',
    });
    try {
      await this.bus.publish('wayfinder.anchor-changes.v1', [change]);
    } catch (error) {
      throw new ApiError(503, { error: `the bus did not accept the decision: ${(error as Error).message}` }, 1);
    }
    return { kind, taskId: change.taskId, anchorId, proposalId };
  }
}
