// A tenant cannot lift its own ingest limit: the operator's ceilings (WAYFINDER_INGEST_MAX_EVENTS_PER_SECOND /
// WAYFINDER_INGEST_MAX_BURST) bound what a tenant's policy may ask; asking more is refused with 400 naming the
// field, the limit that refused a batch still refuses it, and lowering within the ceiling is the tenant's choice.
import type { RunningServices } from '../runtime';
import { call, loopSteps, startWithGateway } from './gateway.testing';

const A = 'acme-secret-key';
const B = 'globex-secret-key';

describe('a tenant cannot raise its own ingest limit', () => {
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A},globex:${B}`, WAYFINDER_INGEST_MAX_EVENTS_PER_SECOND: '0.5', WAYFINDER_INGEST_MAX_BURST: '10' });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('refuses a policy over the ceiling with 400 naming the field, and the refused batch stays refused', async () => {
    expect((await call(base, 'POST', '/v1/steps', { key: A, body: loopSteps('a', 4) })).status).toBe(202);
    const refused = await call(base, 'POST', '/v1/steps', { key: A, body: loopSteps('a', 2, { firstSeq: 8 }) });
    expect(refused.status).toBe(429);

    const lift = await call(base, 'PUT', '/v1/policy', { key: A, body: { policy: {}, ingest: { eventsPerSecond: 1_000_000, burst: 10 } } });
    expect(lift).toMatchObject({ status: 400, body: { field: 'ingest.eventsPerSecond' } });
    expect(lift.body.error).toMatch(/ceiling/);
    expect(await call(base, 'PUT', '/v1/policy', { key: A, body: { policy: {}, ingest: { burst: 1_000_000 } } })).toMatchObject({ status: 400, body: { field: 'ingest.burst' } });

    const again = await call(base, 'POST', '/v1/steps', { key: A, body: loopSteps('a', 2, { firstSeq: 8 }) });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // A batch over the operator's burst is 413 whatever the tenant asked.
    expect((await call(base, 'POST', '/v1/steps', { key: B, body: loopSteps('b', 6) })).status).toBe(413);
  });

  it('accepts a policy within the ceiling and reads back the effective limit', async () => {
    expect(await call(base, 'PUT', '/v1/policy', { key: B, body: { policy: {}, ingest: { eventsPerSecond: 0.25, burst: 6 } } })).toMatchObject({ status: 200, body: { ingest: { eventsPerSecond: 0.25, burst: 6 } } });
    expect((await call(base, 'POST', '/v1/steps', { key: B, body: loopSteps('b', 4) })).status).toBe(413);
  });
});
