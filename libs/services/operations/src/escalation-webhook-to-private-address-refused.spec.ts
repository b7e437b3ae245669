/**
 * Issue #29: the escalation notifier posted to any URL a tenant's policy named, with fetch, whatever it
 * resolved to. It now posts under the operator's egress policy, at send and at connect time: a webhook
 * whose host is not allowed, or whose allowed name resolves to a loopback address the operator did not
 * allow, is refused and the listener receives nothing; the same webhook allowed by the operator is posted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { egressFromEnv, type EgressPolicy } from '@wayfinder/config';
import type { Escalation } from '@wayfinder/contracts';
import type { PolicyBook } from '@wayfinder/service-core';
import { notifierUnderTest } from './escalation-notifier.testing';

const escalation = {
  schema: 'wayfinder.escalation.v1', eventId: 'esc-1', tenantId: 'acme', agentId: 'a1', taskId: 't1', runId: 'r1',
  ts: new Date().toISOString(), reason: 'frozen', deviations: [], correctionsTried: [],
} as unknown as Escalation;

/** The reasons the escalation was dead-lettered for (none when it was posted). */
async function refusals(url: string, egress: EgressPolicy): Promise<string[]> {
  const policies = { tenant: () => ({ webhook: { url, format: 'generic' } }) } as unknown as PolicyBook;
  const notifier = notifierUnderTest(policies, egress);
  await notifier.deliver([escalation]);
  return notifier.deadLetters.map((d) => d.reason);
}

describe('an escalation webhook under the operator egress policy', () => {
  let server: Server;
  let port: number;
  let received = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      received++;
      req.resume();
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    received = 0;
  });

  it('is refused when the operator allows nothing, and the listener receives nothing', async () => {
    expect(await refusals(`http://127.0.0.1:${port}/hook`, egressFromEnv({}))).toEqual([expect.stringContaining('refused')]);
    expect(received).toBe(0);
  });

  it('is refused at connect time when an allowed name resolves to a loopback address', async () => {
    expect(await refusals(`http://localhost:${port}/hook`, egressFromEnv({ WAYFINDER_EGRESS_ALLOW: 'localhost' }))).toEqual([expect.stringMatching(/refused|private/)]);
    expect(received).toBe(0);
  });

  it('is posted when the operator allows it', async () => {
    expect(await refusals(`http://localhost:${port}/hook`, egressFromEnv({ WAYFINDER_EGRESS_ALLOW: 'localhost', WAYFINDER_EGRESS_ALLOW_PRIVATE: 'true' }))).toEqual([]);
    expect(received).toBe(1);
  });
});
