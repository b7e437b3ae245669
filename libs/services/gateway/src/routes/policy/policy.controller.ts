/**
 * `GET /v1/policy`: the key's tenant's `wayfinder.policy.v1` (the built-in profile's values when it set
 * none). `PUT /v1/policy`: validated (the contract, then the thresholds' consistency; 400 naming the
 * field), published on the compacted policies topic and applied at once in this process; every service
 * applies it from the topic (live, DESIGN §6). Secret fields are write-only (policy-secrets.ts of the
 * contracts): both answers show `***set***` in their place, and a PUT sending that placeholder back keeps
 * the stored secret (same webhook URL only). `PATCH /v1/policy`: a JSON merge patch (RFC 7396) of the
 * current document, then every step of a PUT. `POST /v1/policy/check`: the same patch checked, not stored.
 */
import { Controller, Get, HttpCode, Inject, Patch, Post, Put, Req } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { POLICY_SCHEMA, redactPolicySecrets, restorePolicySecrets, TenantPolicy } from '@wayfinder/contracts';
import type { Bus } from '@wayfinder/bus';
import { PROFILES, validatePolicy } from '@wayfinder/detection';
import { BUS, POLICY_BOOK, type PolicyBook } from '@wayfinder/service-core';
import type { ResolvedTenant } from '@wayfinder/tenancy';
import { CurrentTenant, tenantOfItem } from '../../auth/tenant.guard';
import { ApiError, badRequest, zodProblem, type ApiErrorBody } from '../../http/api-error';
import { parseJson, readBody } from '../../http/request-body';
import { IngestLimiter } from '../../ingest-limiter';
import { isJsonObject, mergePatch, type JsonObject } from '../../http/merge-patch';
import { egressRefusal, type EgressPolicy } from '@wayfinder/config';
import { GATEWAY_OPTIONS, gatewayEgress, type GatewayOptions } from '../../tokens';

const POLICY_MAX_BYTES = 1024 * 1024;
const MERGE_PATCH_TYPES = new Set(['application/merge-patch+json', 'application/json']);

@Controller('v1/policy')
export class PolicyController {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(POLICY_BOOK) private readonly book: PolicyBook,
    private readonly limiter: IngestLimiter,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
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
    const body = parseJson(await readBody(req, POLICY_MAX_BYTES));
    if (!isJsonObject(body)) throw badRequest('the body must be one wayfinder.policy.v1 object', '(root)');
    return this.store(body, tenantOfItem(tenant, body.tenantId));
  }

  /**
   * A JSON merge patch (RFC 7396) over the tenant's current policy as a GET shows it (secrets as their
   * placeholder, so they are kept only while the webhook URL is; the empty policy when it set none), then
   * stored like a PUT: a new policy event, every check of a PUT.
   */
  @Patch()
  async patch(@Req() req: IncomingMessage, @CurrentTenant() tenant: ResolvedTenant): Promise<TenantPolicy> {
    const media = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (media !== '' && !MERGE_PATCH_TYPES.has(media)) throw new ApiError(415, { error: `the content type ${JSON.stringify(media)} is not accepted: send application/merge-patch+json (or application/json)`, field: 'Content-Type' });
    const patch = parseJson(await readBody(req, POLICY_MAX_BYTES));
    if (!isJsonObject(patch)) throw badRequest('the body must be one JSON object: a merge patch of the wayfinder.policy.v1 document', '(root)');
    const tenantId = tenantOfItem(tenant, patch.tenantId ?? undefined);
    return this.store(this.patched(patch, tenantId), tenantId);
  }

  /**
   * `POST /v1/policy/check`: the merge patch a PATCH would apply, put through every check of a PATCH and
   * not stored. `200 {"ok": true}`, or `200 {"ok": false, "error", "field"}` naming the bad field: the
   * dashboard's policy editor validates before it saves (a 400 would be logged by the browser as a
   * failed load), and so can any tool.
   */
  @Post('check')
  @HttpCode(200)
  async check(@Req() req: IncomingMessage, @CurrentTenant() tenant: ResolvedTenant): Promise<{ ok: true } | ({ ok: false } & ApiErrorBody)> {
    const patch = parseJson(await readBody(req, POLICY_MAX_BYTES));
    if (!isJsonObject(patch)) return { ok: false, error: 'the body must be one JSON object: a merge patch of the wayfinder.policy.v1 document', field: '(root)' };
    const tenantId = tenantOfItem(tenant, patch.tenantId ?? undefined);
    try {
      this.checked(this.patched(patch, tenantId), tenantId);
      return { ok: true };
    } catch (error) {
      if (error instanceof ApiError && error.getStatus() === 400) return { ok: false, ...error.body };
      throw error;
    }
  }

  /** The tenant's current document as a GET shows it, with the merge patch applied. */
  private patched(patch: JsonObject, tenantId: string): JsonObject {
    const stored = this.book.documentOf(tenantId);
    // Envelope fields are the event's, not the policy's: a patch is a new event (its own eventId and ts).
    const { schema: _schema, eventId: _eventId, ts: _ts, ...current } = stored ? redactPolicySecrets(stored) : { policy: {} };
    const merged = mergePatch(current, patch);
    if (!isJsonObject(merged)) throw badRequest('the patched policy is not an object', '(root)');
    return merged;
  }

  /**
   * The steps a PUT and a PATCH share, from the whole document on: the contract (400 naming the field),
   * the write-only secrets restored, the operator's ingest ceiling and egress allow-list, the thresholds'
   * consistency per overlay; then published on the policies topic and applied here; answered redacted.
   */
  private async store(body: JsonObject, tenantId: string): Promise<TenantPolicy> {
    const doc = this.checked(body, tenantId);
    try {
      await this.bus.publish('wayfinder.policies.v1', [doc]);
    } catch (error) {
      throw new ApiError(503, { error: `the bus did not accept the policy: ${(error as Error).message}` }, 1);
    }
    this.book.apply(doc);
    return redactPolicySecrets(doc);
  }

  /** Every check of a PUT and a PATCH, in order; the document to store, or a 400 naming the field. */
  private checked(body: JsonObject, tenantId: string): TenantPolicy {
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
    // So is the history's retention (memory in embedded mode, Redis otherwise).
    const retentionMax = this.options.historyRetentionMaxMs;
    if (doc.historyRetentionMs !== undefined && doc.historyRetentionMs > retentionMax) throw badRequest(`historyRetentionMs: ${doc.historyRetentionMs} is over the operator's maximum of ${retentionMax} (WAYFINDER_HISTORY_RETENTION_MAX_MS)`, 'historyRetentionMs');
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
    return doc;
  }
}
