/**
 * Caps on the streams a gateway holds open: SSE streams and waiting long-polls of
 * `GET /v1/agents/:id/corrections`, and the fleet streams of `GET /v1/fleet/events`, per tenant (GatewayOptions.maxStreamsPerTenant) and in all
 * (maxStreams), so one tenant cannot exhaust the process's file descriptors and memory for every other.
 * Past a cap → 429 with Retry-After; a slot is given back once, when its connection closes.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../http/api-error';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../../tokens';

/** Seconds in Retry-After past a cap (streams are long-lived: a client should not hammer). */
export const STREAM_RETRY_AFTER_SECONDS = 5;

@Injectable()
export class StreamSlots {
  private readonly byTenant = new Map<string, number>();
  private total = 0;

  constructor(@Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions) {}

  /** Takes a slot for the tenant or throws the 429; the returned release is idempotent. */
  acquire(tenantId: string): () => void {
    const held = this.byTenant.get(tenantId) ?? 0;
    if (held >= this.options.maxStreamsPerTenant) {
      throw new ApiError(429, { error: `tenant ${tenantId} has ${held} streams open, its cap: close one or retry later` }, STREAM_RETRY_AFTER_SECONDS);
    }
    if (this.total >= this.options.maxStreams) {
      throw new ApiError(429, { error: `the gateway holds its cap of ${this.options.maxStreams} open streams: retry later` }, STREAM_RETRY_AFTER_SECONDS);
    }
    this.byTenant.set(tenantId, held + 1);
    this.total += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.byTenant.get(tenantId) ?? 1) - 1;
      if (left <= 0) this.byTenant.delete(tenantId);
      else this.byTenant.set(tenantId, left);
    };
  }

  /** Open streams of a tenant (for tests and metrics). */
  openOf(tenantId: string): number {
    return this.byTenant.get(tenantId) ?? 0;
  }
}
