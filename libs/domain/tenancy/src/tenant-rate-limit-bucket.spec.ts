// The per-tenant token bucket: a burst passes, the next request waits for the refill it needs, one
// tenant's traffic never spends another's tokens, and a request larger than the burst never passes.
import { TenantRateLimiter } from './rate-limit';

describe('TenantRateLimiter', () => {
  const limits = { eventsPerSecond: 10, burst: 20 };

  it('lets a burst through, then asks to retry after the refill it needs', () => {
    let now = 0;
    const limiter = new TenantRateLimiter(() => now);
    expect(limiter.take('acme', 20, limits)).toEqual({ ok: true });
    expect(limiter.take('acme', 15, limits)).toEqual({ ok: false, retryAfterSeconds: 2, tooLarge: false });
    expect(limiter.take('globex', 20, limits)).toEqual({ ok: true });
    now += 1_500;
    expect(limiter.take('acme', 15, limits)).toEqual({ ok: true });
    expect(limiter.take('acme', 1, limits)).toEqual({ ok: false, retryAfterSeconds: 1, tooLarge: false });
  });

  it('refuses a request larger than the burst outright', () => {
    expect(new TenantRateLimiter(() => 0).take('acme', 21, limits)).toMatchObject({ ok: false, tooLarge: true });
  });
});
