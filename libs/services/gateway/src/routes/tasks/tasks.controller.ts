/**
 * `POST /v1/tasks`: one `wayfinder.task.v1` (same fill rules as steps). The task is parsed into its
 * cognitive map here, so a task the task-parser would refuse gets its 400 now; then it is published and
 * the map answered (the version the task-parser will store: the next one when the task changed).
 */
import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { TASK_SCHEMA, TaskSpec, type CognitiveMap } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import { mapEventId, parseTask } from '@wayfinder/cognitive-map';
import { BUS, MAP_STORE, type MapStore } from '@wayfinder/service-core';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant, tenantOfItem } from '../../auth/tenant.guard';
import { ApiError, badRequest, zodProblem } from '../../http/api-error';
import { parseJson, readBody } from '../../http/request-body';
import { IngestLimiter } from '../../ingest-limiter';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../../tokens';
import { fillEnvelope, isObject } from '../steps/steps.controller';

@Controller('v1/tasks')
export class TasksController {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(MAP_STORE) private readonly maps: MapStore,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly limiter: IngestLimiter,
  ) {}

  @Post()
  @HttpCode(201)
  async post(@Req() req: IncomingMessage, @CurrentTenant() tenant: ResolvedTenant): Promise<{ map: CognitiveMap }> {
    const body = parseJson(await readBody(req, this.options.maxBodyBytes));
    if (!isObject(body)) throw badRequest('the body must be one wayfinder.task.v1 object', '(root)');
    const tenantId = tenantOfItem(tenant, body.tenantId);
    this.limiter.take(tenant.tenantId, 1);
    const parsed = TaskSpec.safeParse(fillEnvelope(body, tenantId, TASK_SCHEMA));
    if (!parsed.success) {
      const problem = zodProblem(parsed.error);
      throw badRequest(problem.error, problem.field);
    }
    const result = parseTask(parsed.data);
    if (!result.ok) throw badRequest(`${result.error.code}: ${result.error.message}`, result.error.code === 'too_many_milestones' || result.error.ids.length > 0 ? 'milestones' : 'goal');
    let map = result.value;
    const previous = await this.maps.get(tenantId, map.taskId);
    if (previous && sameRoute(previous, map)) map = previous;
    else if (previous) map = { ...map, version: previous.version + 1, eventId: mapEventId(map.taskId, previous.version + 1) };
    try {
      await this.bus.publish('wayfinder.tasks.v1', [parsed.data]);
    } catch (error) {
      throw new ApiError(503, { error: `the bus did not accept the task: ${(error as Error).message}` }, 1);
    }
    return { map };
  }
}

/** The task-parser's own test of "the same task again" (a redelivery keeps its version). */
function sameRoute(a: CognitiveMap, b: CognitiveMap): boolean {
  const route = (m: CognitiveMap) => JSON.stringify([m.goal, m.milestones, m.anchors, m.constraints, m.maxSteps, m.expectedStepMs]);
  return route(a) === route(b);
}
