/**
 * Issue #29: an escalation waiting in its tenant's delivery lane lived only in memory, and the notifier's
 * batch is committed once it is queued, so a notifier stopped while the tenant's receiver was down lost
 * it. With the pending deliveries on a real Redis, the notifier started again (a new instance: a new
 * owner) takes it over once the stopped one's lease ran out and posts it when the receiver is back; a
 * notifier still running keeps its own.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { egressFromEnv } from '@wayfinder/config';
import type { Escalation } from '@wayfinder/contracts';
import { deleteMatching, RedisPendingDeliveries } from '@wayfinder/redis';
import type { PolicyBook } from '@wayfinder/service-core';
import { InMemoryDeliveryLog } from './delivery-log';
import { EscalationNotifierHandler } from './escalation-notifier.handler';

const run = `${process.pid}-${Date.now()}`;
const LEASE_MS = 600;

function escalation(eventId: string): Escalation {
  return {
    schema: 'wayfinder.escalation.v1', eventId, tenantId: 'acme', agentId: 'a1', taskId: 't1', runId: 'r1',
    ts: new Date().toISOString(), reason: 'frozen', deviations: [], correctionsTried: [],
  } as unknown as Escalation;
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('an escalation waiting for its webhook across a notifier restart', () => {
  const redis = new Redis(process.env.WAYFINDER_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  let receiver: Server;
  let url: string;
  let up = false;
  const accepted: string[] = [];
  let refused = 0;

  beforeAll(async () => {
    await redis.connect().catch((error: Error) => {
      throw new Error(`Redis is not reachable at 127.0.0.1:6379 (run npm run infra:up): ${error.message}`);
    });
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (!up) {
          refused++;
          res.writeHead(503).end();
          return;
        }
        accepted.push(String(req.headers['idempotency-key']));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await deleteMatching(redis, [`wf:{pending-deliveries:restart-${run}}:*`]);
    await redis.quit();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('is posted by the notifier started again, once the stopped one\'s lease ran out', async () => {
    const policies = { tenant: () => ({ webhook: { url, format: 'generic' } }) } as unknown as PolicyBook;
    const egress = egressFromEnv({ WAYFINDER_EGRESS_ALLOW: '127.0.0.1' });
    const log = new InMemoryDeliveryLog();
    const notifier = (owner: string) =>
      new EscalationNotifierHandler(policies, log, 2_000, egress, undefined, { maxAttempts: 20, initialBackoffMs: 60_000, maxBackoffMs: 60_000 }, new RedisPendingDeliveries(redis, { namespace: `restart-${run}`, owner, leaseMs: LEASE_MS }));

    const first = notifier('first');
    await first.onApplicationBootstrap();
    await first.onEscalations([escalation('esc-1')]);
    await until(() => refused === 1); // tried once, now waiting a minute before the next try
    const second = notifier('second');
    await second.onApplicationBootstrap();
    // The first still runs and renews: the second takes nothing over.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2));
    expect(await second.renewAndRecover()).toBe(0);
    await second.onModuleDestroy();

    await first.onModuleDestroy(); // the restart: what waited in its lane is gone from memory
    up = true;
    const restarted = notifier('restarted');
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 50));
    await restarted.onApplicationBootstrap();
    await until(() => accepted.length === 1);
    await restarted.lanes.idle();
    expect(accepted).toEqual(['esc-1']);
    expect(await log.delivered('acme', 'esc-1')).toBe(true);
    expect(await redis.hlen(`wf:{pending-deliveries:restart-${run}}:records`)).toBe(0);
    await restarted.onModuleDestroy();
  });
});
