/**
 * Per-tenant ingest rate limit: a token bucket of `burst` events refilled at `eventsPerSecond`. A request
 * takes as many tokens as it carries events, or none at all, and learns when to retry.
 */
import { systemClock } from '@wayfinder/clock';

export interface IngestLimits {
  readonly eventsPerSecond: number;
  readonly burst: number;
}

/** Sane defaults: a laptop agent or a CI fleet never meets them; a runaway producer does. */
export const DEFAULT_INGEST_LIMITS: IngestLimits = { eventsPerSecond: 2_000, burst: 10_000 };

export type TakeResult = { ok: true } | { ok: false; retryAfterSeconds: number; tooLarge: boolean };

interface Bucket {
  tokens: number;
  at: number;
}

export class TenantRateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly now: () => number = systemClock.now,
    /** Tenants remembered at most (the least recently seen is dropped: it refills to full anyway). */
    private readonly maxTenants = 100_000,
  ) {}

  take(tenantId: string, events: number, limits: IngestLimits): TakeResult {
    if (events > limits.burst) return { ok: false, retryAfterSeconds: 1, tooLarge: true };
    const now = this.now();
    let bucket = this.buckets.get(tenantId);
    if (bucket) {
      this.buckets.delete(tenantId);
      bucket.tokens = Math.min(limits.burst, bucket.tokens + ((now - bucket.at) / 1000) * limits.eventsPerSecond);
      bucket.at = now;
    } else {
      bucket = { tokens: limits.burst, at: now };
    }
    this.buckets.set(tenantId, bucket);
    if (this.buckets.size > this.maxTenants) this.buckets.delete(this.buckets.keys().next().value as string);
    if (bucket.tokens >= events) {
      bucket.tokens -= events;
      return { ok: true };
    }
    const missing = events - bucket.tokens;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(missing / limits.eventsPerSecond)), tooLarge: false };
  }
}
