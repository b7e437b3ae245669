/**
 * Issue #29: a failing escalation webhook logged its URL whole — userinfo and path tokens included — on
 * every failure (the handler's error is what HandlerErrorFilter logs and the DLQ keeps as the reason).
 * The failure now names the webhook by redactUrl: scheme, host and port only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Escalation } from '@wayfinder/contracts';
import { egressFromEnv } from '@wayfinder/config';
import { redactUrl } from '@wayfinder/history';
import type { PolicyBook } from '@wayfinder/service-core';
import { notifierUnderTest } from './escalation-notifier.testing';

const USER = 'hook-user';
const PASSWORD = 'pa55-w0rd-s3cret';
const PATH_TOKEN = 'T0KEN-8f3a2c91';
const QUERY_TOKEN = 'sig-77d1e0';

const escalation = {
  schema: 'wayfinder.escalation.v1', eventId: 'esc-1', tenantId: 'acme', agentId: 'a1', taskId: 't1', runId: 'r1',
  ts: new Date().toISOString(), reason: 'frozen', deviations: [], correctionsTried: [],
} as unknown as Escalation;

/** The reason the escalation was dead-lettered for: what the DLQ keeps and the log shows. */
async function failureOf(url: string): Promise<string> {
  const policies = { tenant: () => ({ webhook: { url, format: 'generic' } }) } as unknown as PolicyBook;
  // The operator allows the local receiver (as WAYFINDER_EGRESS_ALLOW=127.0.0.1 would).
  const notifier = notifierUnderTest(policies, egressFromEnv({ WAYFINDER_EGRESS_ALLOW: '127.0.0.1' }));
  await notifier.deliver([escalation]);
  if (notifier.deadLetters.length !== 1) throw new Error('the delivery did not fail');
  return notifier.deadLetters[0].reason;
}

describe('a failing escalation webhook is logged without its secrets', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(500).end('no');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('a non-2xx answer names scheme, host and port, not the path or query token', async () => {
    const line = await failureOf(`http://127.0.0.1:${port}/hooks/${PATH_TOKEN}?token=${QUERY_TOKEN}`);
    expect(line).toContain(`webhook http://127.0.0.1:${port}/… of tenant acme answered 500`);
    expect(line).not.toContain(PATH_TOKEN);
    expect(line).not.toContain(QUERY_TOKEN);
  });

  it('a URL with credentials (sent as basic auth) logs neither the userinfo nor the path token', async () => {
    const line = await failureOf(`http://${USER}:${PASSWORD}@127.0.0.1:${port}/hooks/${PATH_TOKEN}`);
    expect(line).toContain(`webhook http://127.0.0.1:${port}/… of tenant acme answered 500`);
    expect(line).not.toContain(PASSWORD);
    expect(line).not.toContain(USER);
    expect(line).not.toContain(PATH_TOKEN);
  });

  it('redactUrl keeps only scheme, host and port', () => {
    expect(redactUrl(`https://${USER}:${PASSWORD}@hooks.slack.com/services/T000/B000/${PATH_TOKEN}?x=${QUERY_TOKEN}#f`)).toBe('https://hooks.slack.com/…');
    expect(redactUrl('http://[::1]:8443/')).toBe('http://[::1]:8443/');
    expect(redactUrl('https://example.com?token=abc')).toBe('https://example.com/…');
    expect(redactUrl(`not a url ${PASSWORD}`)).toBe('(invalid URL)');
  });
});
