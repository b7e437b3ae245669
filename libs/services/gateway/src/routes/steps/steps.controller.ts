/**
 * `POST /v1/steps`: a JSON array of `wayfinder.step.v1` events, one event, or NDJSON. Each item is
 * validated on its own (the zod contract): valid ones are published, invalid ones are named by index
 * and field, and the 202 comes only after the bus accepted the valid ones. `tenantId`, `schema`,
 * `eventId` and `ts` may be omitted and are filled; a `tenantId` of another tenant refuses the request.
 */
import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { STEP_SCHEMA, StepEvent } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import { BUS } from '@wayfinder/service-core';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant, tenantOfItem } from '../../auth/tenant.guard';
import { ApiError, zodProblem } from '../../http/api-error';
import { batchItems, isNdjson, readBody } from '../../http/request-body';
import { IngestLimiter } from '../../ingest-limiter';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../../tokens';

export interface Rejected {
  index: number;
  error: string;
  field?: string;
}

/** Fills what an agent may leave out; anything else is the contract's to judge. */
export function fillEnvelope(item: Record<string, unknown>, tenantId: string, schema: string): Record<string, unknown> {
  return { schema, eventId: randomUUID(), ts: new Date().toISOString(), ...item, tenantId };
}

@Controller('v1/steps')
export class StepsController {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    private readonly limiter: IngestLimiter,
  ) {}

  @Post()
  @HttpCode(202)
  async post(@Req() req: IncomingMessage, @CurrentTenant() tenant: ResolvedTenant): Promise<{ accepted: number; rejected: Rejected[] }> {
    const items = batchItems(await readBody(req, this.options.maxBodyBytes), isNdjson(req));
    // Another tenant's event anywhere refuses the whole request: nothing of it is published.
    const tenants = items.map((item, index) => (isObject(item.value) ? tenantOfItem(tenant, item.value.tenantId, 'tenantId', index) : tenant.tenantId));
    this.limiter.take(tenant.tenantId, items.length);
    const valid: StepEvent[] = [];
    const rejected: Rejected[] = [];
    items.forEach((item, index) => {
      if (item.error !== undefined) return void rejected.push({ index, error: item.error });
      if (!isObject(item.value)) return void rejected.push({ index, error: '(root): a step event must be a JSON object', field: '(root)' });
      const parsed = StepEvent.safeParse(fillEnvelope(item.value, tenants[index], STEP_SCHEMA));
      if (parsed.success) valid.push(parsed.data);
      else rejected.push({ index, ...zodProblem(parsed.error) });
    });
    if (valid.length > 0) {
      try {
        await this.bus.publish('wayfinder.steps.v1', valid);
      } catch (error) {
        throw new ApiError(503, { error: `the bus did not accept the events, nothing was accepted: ${(error as Error).message}` }, 1);
      }
    }
    return { accepted: valid.length, rejected };
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
