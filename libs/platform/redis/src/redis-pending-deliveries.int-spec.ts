/**
 * RedisPendingDeliveries on a real Redis: a waiting escalation stays owned by the notifier instance that
 * queued it while that instance renews its lease, and is handed, once and whole, to one other instance
 * after the lease ran out (issue #29: webhook retries survive a restart in distributed mode).
 */
import Redis from 'ioredis';
import type { Escalation } from '@wayfinder/contracts';
import { deleteMatching } from './keys';
import { RedisPendingDeliveries } from './redis-pending-deliveries';

const run = `${process.pid}-${Date.now()}`;

function escalation(tenantId: string, eventId: string): Escalation {
  return {
    schema: 'wayfinder.escalation.v1', eventId, tenantId, agentId: 'a1', taskId: 't1', runId: null,
    ts: '2026-01-01T00:00:00.000Z', reason: 'frozen', deviations: [], correctionsTried: [],
  } as unknown as Escalation;
}

describe('RedisPendingDeliveries on a real Redis', () => {
  const redis = new Redis(process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  let clock = 1_000_000;
  const instance = (owner: string, namespace: string) => new RedisPendingDeliveries(redis, { namespace: `${namespace}-${run}`, owner, leaseMs: 10_000, now: () => clock });

  beforeAll(async () => {
    await redis.connect().catch((error: Error) => {
      throw new Error(`Redis is not reachable at 127.0.0.1:6379 (run npm run infra:up): ${error.message}`);
    });
  });
  afterAll(async () => {
    await deleteMatching(redis, [`wf:{pending-deliveries:*-${run}}:*`]);
    await redis.quit();
  });

  it('hands a stopped owner\'s deliveries, whole and with their source, to one other instance once the lease ran out', async () => {
    const a = instance('a', 'handover');
    const withSource = { escalation: escalation('acme', 'e-1'), source: { topic: 'wayfinder.escalations.v1', partition: 3, offset: '42', key: 'acme' } };
    await a.add(withSource);
    await a.add({ escalation: escalation('globex', 'e-2') });
    const b = instance('b', 'handover');
    const c = instance('c', 'handover');
    expect(await b.claimOrphans()).toEqual([]);

    clock += 10_001; // a stopped renewing
    const [byB, byC] = await Promise.all([b.claimOrphans(), c.claimOrphans()]);
    const claimed = [...byB, ...byC].sort((x, y) => x.escalation.eventId.localeCompare(y.escalation.eventId));
    expect(claimed).toEqual([withSource, { escalation: escalation('globex', 'e-2') }]);
    // Now owned (and renewed) by their new owners: nobody claims them again.
    await b.renew();
    await c.renew();
    clock += 5_000;
    expect([...(await a.claimOrphans()), ...(await b.claimOrphans()), ...(await c.claimOrphans())]).toEqual([]);
  });

  it('keeps a delivery its owner renews, and forgets one it removed', async () => {
    const a = instance('a', 'renew');
    await a.add({ escalation: escalation('acme', 'kept') });
    await a.add({ escalation: escalation('acme', 'posted') });
    await a.remove('acme', 'posted');
    clock += 8_000;
    await a.renew();
    clock += 8_000; // past the first lease, within the renewed one
    const b = instance('b', 'renew');
    expect(await b.claimOrphans()).toEqual([]);
    clock += 2_001;
    expect((await b.claimOrphans()).map((d) => d.escalation.eventId)).toEqual(['kept']);
    // The old owner's renewal does not take it back.
    await a.renew();
    clock += 10_001;
    await b.renew();
    expect(await instance('c', 'renew').claimOrphans()).toEqual([]);
  });

  it('keeps each tenant\'s deliveries apart, whatever their ids hold', async () => {
    const a = instance('a', 'ids');
    await a.add({ escalation: escalation('t"1', 'x') });
    await a.add({ escalation: escalation('t', '"1x') });
    await a.remove('t', '"1x');
    clock += 10_001;
    expect((await instance('b', 'ids').claimOrphans()).map((d) => [d.escalation.tenantId, d.escalation.eventId])).toEqual([['t"1', 'x']]);
  });
});
