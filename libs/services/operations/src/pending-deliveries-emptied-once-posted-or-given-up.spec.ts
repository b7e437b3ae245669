/**
 * The notifier's pending deliveries hold an escalation only while it waits (issue #29): once its tenant's
 * receiver accepted it, once it was given up after its tries, and when its lane was full, it is gone, so
 * the in-memory record of embedded mode does not grow with every escalation ever sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { egressFromEnv } from '@wayfinder/config';
import type { Escalation } from '@wayfinder/contracts';
import type { PolicyBook } from '@wayfinder/service-core';
import { notifierUnderTest } from './escalation-notifier.testing';
import { InMemoryPendingDeliveries } from './pending-deliveries';

function escalation(tenantId: string, eventId: string): Escalation {
  return {
    schema: 'wayfinder.escalation.v1', eventId, tenantId, agentId: 'a1', taskId: 't1', runId: 'r1',
    ts: new Date().toISOString(), reason: 'frozen', deviations: [], correctionsTried: [],
  } as unknown as Escalation;
}

describe('pending deliveries of the escalation notifier', () => {
  let receiver: Server;
  let url: string;
  const accepted: string[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url === '/refuse') return void res.writeHead(500).end();
        accepted.push(String(req.headers['idempotency-key']));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  it('are empty once every escalation was posted, given up or refused by a full lane', async () => {
    const policies = { tenant: (t: string) => ({ webhook: { url: `${url}/${t === 'refused' ? 'refuse' : 'hook'}`, format: 'generic' } }) } as unknown as PolicyBook;
    const notifier = notifierUnderTest(policies, egressFromEnv({ WAYFINDER_EGRESS_ALLOW: '127.0.0.1' }), { lanes: { maxAttempts: 1, maxWaiting: 2 } });
    const pending = notifier.handler.pending as InMemoryPendingDeliveries;
    // 'full': three of one tenant in one batch, its lane holds two.
    await notifier.handler.onEscalations([escalation('ok', 'ok-1'), escalation('refused', 'no-1'), escalation('ok', 'ok-2'), escalation('ok', 'ok-3')]);
    expect(pending.size).toBeGreaterThan(0);
    await notifier.handler.lanes.idle();
    expect(accepted.sort()).toEqual(['ok-1', 'ok-2']);
    expect(notifier.deadLetters.map((d) => d.escalation.eventId).sort()).toEqual(['no-1', 'ok-3']);
    expect(pending.size).toBe(0);
  });
});
