/**
 * The per-tenant ingest rate limit of the gateway: the tenant policy's `ingest` (events/s, burst) over
 * DEFAULT_INGEST_LIMITS, each capped by the operator's ceiling (GatewayOptions.ingestCeiling: a tenant cannot
 * lift the limit that refused it), a token bucket per tenant in this gateway instance; over it → 429 + Retry-After.
 */
import { Inject, Injectable } from '@nestjs/common';
import { POLICY_BOOK, type PolicyBook } from '@wayfinder/service-core';
import { DEFAULT_INGEST_LIMITS, TenantRateLimiter, type IngestLimits } from '@wayfinder/tenancy';
import { ApiError } from './http/api-error';
import { GATEWAY_OPTIONS, type GatewayOptions } from './tokens';

@Injectable()
export class IngestLimiter {
  private readonly limiter = new TenantRateLimiter();

  constructor(
    @Inject(POLICY_BOOK) private readonly policies: PolicyBook,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
  ) {}

  /** The operator's ceilings: no tenant policy goes above them. */
  get ceiling(): IngestLimits {
    return this.options.ingestCeiling;
  }

  limitsOf(tenantId: string): IngestLimits {
    const asked = { ...DEFAULT_INGEST_LIMITS, ...this.policies.documentOf(tenantId)?.ingest };
    const ceiling = this.ceiling;
    return { eventsPerSecond: Math.min(asked.eventsPerSecond, ceiling.eventsPerSecond), burst: Math.min(asked.burst, ceiling.burst) };
  }

  /** Takes `events` from the tenant's bucket or throws the 429 (413 for a batch larger than the burst). */
  take(tenantId: string, events: number): void {
    const limits = this.limitsOf(tenantId);
    const taken = this.limiter.take(tenantId, events, limits);
    if (taken.ok) return;
    if (taken.tooLarge) throw new ApiError(413, { error: `a batch of ${events} events exceeds the tenant's burst of ${limits.burst}: send smaller batches` });
    throw new ApiError(429, { error: `tenant ${tenantId} is over its ingest limit (${limits.eventsPerSecond} events/s, burst ${limits.burst})` }, taken.retryAfterSeconds);
  }
}
