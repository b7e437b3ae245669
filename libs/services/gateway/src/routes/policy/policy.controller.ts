/**
 * `GET /v1/policy`: the key's tenant's `wayfinder.policy.v1` (the built-in profile's values when it set
 * none). `PUT /v1/policy`: validated (the contract, then the thresholds' consistency; 400 naming the
 * field), published on the compacted policies topic and applied at once in this process; every service
 * applies it from the topic (live, DESIGN §6). Secret fields are write-only (policy-secrets.ts of the
 * contracts): both answers show `***set***` in their place, and a PUT sending that placeholder back keeps
 * the stored secret (same webhook URL only).
 */
import { Controller, Get, Inject, Put, Req } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { POLICY_SCHEMA, redactPolicySecrets, restorePolicySecrets, TenantPolicy } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import { PROFILES, validatePolicy } from '@wayfinder/detection';
import { BUS, POLICY_BOOK, type PolicyBook } from '@wayfinder/service-core';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant, tenantOfItem } from '../../auth/tenant.guard';
import { ApiError, badRequest, zodProblem } from '../../http/api-error';
import { parseJson, readBody } from '../../http/request-body';
import { IngestLimiter } from '../../ingest-limiter';
import { isObject } from '../steps/steps.controller';
import { egressRefusal, type EgressPolicy } from '@wayfinder/config';
import { GATEWAY_OPTIONS, gatewayEgress, type GatewayOptions } from '../../tokens';

@Controller('v1/policy')
export class PolicyController {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(POLICY_BOOK) private readonly book: PolicyBook,
    private readonly limiter: IngestLimiter,
    @Inject(GATEWAY_OPTIONS) options: GatewayOptions,
  ) {
    this.egress = gatewayEgress(options);
  }

  private readonly egress: EgressPolicy;

  @Get()
  get(@CurrentTenant() tenant: ResolvedTenant): TenantPolicy {
    const stored = this.book.documentOf(tenant.tenantId);
    if (stored) return redactPolicySecrets(stored);
    return {
      schema: POLICY_SCHEMA,
      eventId: `default-${this.book.profile}`,
      tenantId: tenant.tenantId,
      ts: new Date(0).toISOString(),
      policy: PROFILES[this.book.profile],
      ingest: this.limiter.limitsOf(tenant.tenantId),
    };
  }

  @Put()
  async put(@Req() req: IncomingMessage, @CurrentTenant() tenant: ResolvedTenant): Promise<TenantPolicy> {
    const body = parseJson(await readBody(req, 1024 * 1024));
    if (!isObject(body)) throw badRequest('the body must be one wayfinder.policy.v1 object', '(root)');
    const tenantId = tenantOfItem(tenant, body.tenantId);
    const parsed = TenantPolicy.safeParse({ ...body, schema: body.schema ?? POLICY_SCHEMA, eventId: body.eventId ?? randomUUID(), ts: new Date().toISOString(), tenantId });
    if (!parsed.success) {
      const problem = zodProblem(parsed.error);
      throw badRequest(problem.error, problem.field);
    }
    const restored = restorePolicySecrets(parsed.data, this.book.documentOf(tenantId));
    if (!restored.ok) throw badRequest(restored.error, restored.field);
    const doc = restored.doc;
    // The ingest limit is the operator's to bound: a tenant may lower it, never lift it past the ceiling.
    const ceiling = this.limiter.ceiling;
    const ingest = doc.ingest;
    if (ingest?.eventsPerSecond !== undefined && ingest.eventsPerSecond > ceiling.eventsPerSecond) throw badRequest(`ingest.eventsPerSecond: ${ingest.eventsPerSecond} is over the operator's ceiling of ${ceiling.eventsPerSecond}`, 'ingest.eventsPerSecond');
    if (ingest?.burst !== undefined && ingest.burst > ceiling.burst) throw badRequest(`ingest.burst: ${ingest.burst} is over the operator's ceiling of ${ceiling.burst}`, 'ingest.burst');
    // Egress is the operator's: a tenant's upstream and webhook must be in its allow-list (not loopback,
    // not an internal service); the resolved address is checked again at connect time.
    for (const [field, url] of [
      ['proxy.upstream', doc.proxy?.upstream],
      ['webhook.url', doc.webhook?.url],
    ] as const) {
      const refusal = url === undefined ? undefined : egressRefusal(this.egress, url);
      if (refusal) throw badRequest(`${field}: ${refusal}`, field);
    }
    const overlays: Array<[string, unknown]> = [
      ['policy', doc.policy],
      ...Object.entries(doc.tasks ?? {}).map(([id, o]): [string, unknown] => [`tasks.${id}`, o]),
      ...Object.entries(doc.agents ?? {}).map(([id, o]): [string, unknown] => [`agents.${id}`, o]),
    ];
    for (const [field, overlay] of overlays) {
      const check = validatePolicy(overlay);
      if (!check.ok) throw badRequest(`${field}: ${check.error}`, field);
    }
    try {
      await this.bus.publish('wayfinder.policies.v1', [doc]);
    } catch (error) {
      throw new ApiError(503, { error: `the bus did not accept the policy: ${(error as Error).message}` }, 1);
    }
    this.book.apply(doc);
    return redactPolicySecrets(doc);
  }
}
