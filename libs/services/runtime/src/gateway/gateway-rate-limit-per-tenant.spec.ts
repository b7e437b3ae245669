// The per-tenant ingest limit from the tenant policy: within the burst requests pass, past it → 429 with
// Retry-After; another tenant is not slowed; a batch larger than the burst → 413; a bad limit → 400.
import type { RunningServices } from '../runtime';
import { call, loopSteps, startWithGateway } from './gateway.testing';

const A = 'acme-secret-key';
const B = 'globex-secret-key';

describe('per-tenant rate limit', () => {
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A},globex:${B}` });
    base = running.gateway!.url;
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('answers 429 with Retry-After past the tenant’s burst', async () => {
    expect(await call(base, 'PUT', '/v1/policy', { key: A, body: { policy: {}, ingest: { eventsPerSecond: -1 } } })).toMatchObject({ status: 400, body: { field: 'ingest.eventsPerSecond' } });
    const put = await call(base, 'PUT', '/v1/policy', { key: A, body: { policy: {}, ingest: { eventsPerSecond: 0.5, burst: 10 } } });
    expect(put).toMatchObject({ status: 200, body: { tenantId: 'acme', ingest: { eventsPerSecond: 0.5, burst: 10 } } });
    expect((await call(base, 'POST', '/v1/steps', { key: A, body: loopSteps('a', 4) })).status).toBe(202);
    const over = await call(base, 'POST', '/v1/steps', { key: A, body: loopSteps('a', 2, { firstSeq: 8 }) });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(over.body.error).toMatch(/ingest limit/);
    expect((await call(base, 'POST', '/v1/steps', { key: B, body: loopSteps('b', 4) })).status).toBe(202);
    expect((await call(base, 'POST', '/v1/steps', { key: A, body: loopSteps('a', 6) })).status).toBe(413);
  });
});
