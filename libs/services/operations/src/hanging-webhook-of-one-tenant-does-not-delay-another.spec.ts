/**
 * Issue #29: one tenant's hanging escalation webhook delayed another tenant's escalation by 90 s (the
 * notifier retried the whole batch, and every later batch waited behind it). Each tenant's deliveries
 * now go through a lane of their own: with tenant A's receiver accepting the request and never answering,
 * tenant B's receiver gets B's escalation — in the same batch and in a later one — while A's request is
 * still open; A's escalation is dead-lettered with the timeout once its tries are spent; a lane past its
 * bound refuses at once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { egressFromEnv } from '@wayfinder/config';
import type { Escalation } from '@wayfinder/contracts';
import type { PolicyBook } from '@wayfinder/service-core';
import { notifierUnderTest } from './escalation-notifier.testing';

function escalation(tenantId: string, eventId: string): Escalation {
  return {
    schema: 'wayfinder.escalation.v1', eventId, tenantId, agentId: 'a1', taskId: 't1', runId: 'r1',
    ts: new Date().toISOString(), reason: 'frozen', deviations: [], correctionsTried: [],
  } as unknown as Escalation;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

describe('a hanging escalation webhook of one tenant', () => {
  let hanging: { server: Server; url: string };
  let answering: { server: Server; url: string };
  /** Requests tenant A's receiver holds open (never answered). */
  const open: ServerResponse[] = [];
  /** What tenant B's receiver got, with how many of A's requests were open at that moment. */
  const receivedByB: Array<{ idempotencyKey: string; openAtA: number }> = [];

  beforeAll(async () => {
    hanging = await listen((req, res) => {
      req.resume();
      open.push(res);
      res.on('close', () => open.splice(open.indexOf(res), 1));
    });
    answering = await listen((req, res) => {
      req.resume();
      req.on('end', () => {
        receivedByB.push({ idempotencyKey: String(req.headers['idempotency-key']), openAtA: open.filter((r) => !r.writableEnded).length });
        res.writeHead(204).end();
      });
    });
  });
  afterAll(async () => {
    for (const res of open) res.destroy();
    hanging.server.closeAllConnections();
    await new Promise((resolve) => hanging.server.close(resolve));
    await new Promise((resolve) => answering.server.close(resolve));
  });

  it('delays only its own tenant: B is posted while A hangs, and A is dead-lettered with the timeout', async () => {
    const policies = { tenant: (t: string) => ({ webhook: { url: t === 'tenant-a' ? hanging.url : answering.url, format: 'generic' } }) } as unknown as PolicyBook;
    const notifier = notifierUnderTest(policies, egressFromEnv({ WAYFINDER_EGRESS_ALLOW: '127.0.0.1' }), { timeoutMs: 1_500, lanes: { maxAttempts: 2, initialBackoffMs: 50, maxBackoffMs: 50 } });

    // One batch with A first, then a later batch with B's next escalation: neither waits on A's receiver.
    await notifier.handler.onEscalations([escalation('tenant-a', 'a-1'), escalation('tenant-b', 'b-1')]);
    await notifier.handler.onEscalations([escalation('tenant-b', 'b-2')]);
    await until(() => receivedByB.length === 2);
    expect(receivedByB).toEqual([
      { idempotencyKey: 'b-1', openAtA: 1 },
      { idempotencyKey: 'b-2', openAtA: 1 },
    ]);
    expect(notifier.deadLetters).toEqual([]);

    await notifier.handler.lanes.idle();
    expect(notifier.deadLetters).toEqual([
      expect.objectContaining({ topic: 'wayfinder.escalations.v1.dlq', attempts: 2, escalation: expect.objectContaining({ tenantId: 'tenant-a', eventId: 'a-1' }) }),
    ]);
    expect(notifier.deadLetters[0].reason).toContain('of tenant tenant-a did not answer: did not answer within 1500 ms');
  });

  it('a tenant whose lane is full is refused at once, without holding the batch or another tenant', async () => {
    const policies = { tenant: (t: string) => ({ webhook: { url: t === 'tenant-a' ? hanging.url : answering.url, format: 'generic' } }) } as unknown as PolicyBook;
    const notifier = notifierUnderTest(policies, egressFromEnv({ WAYFINDER_EGRESS_ALLOW: '127.0.0.1' }), { timeoutMs: 1_000, lanes: { maxWaiting: 2 } });
    receivedByB.length = 0;
    await notifier.handler.onEscalations(['a-1', 'a-2', 'a-3'].map((id) => escalation('tenant-a', id)).concat(escalation('tenant-b', 'b-3')));
    expect(notifier.deadLetters.map((d) => [d.escalation.eventId, d.reason])).toEqual([['a-3', 'the webhook of tenant tenant-a has 2 deliveries waiting']]);
    expect(notifier.handler.lanes.waiting('tenant-a')).toBe(2);
    await until(() => receivedByB.length === 1);
    expect(receivedByB[0].idempotencyKey).toBe('b-3');
    await notifier.handler.lanes.idle();
    expect(notifier.deadLetters.map((d) => d.escalation.eventId)).toEqual(['a-3', 'a-1', 'a-2']);
  });
});

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('the condition was not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
