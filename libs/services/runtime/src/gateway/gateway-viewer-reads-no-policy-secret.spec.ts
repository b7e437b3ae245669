// Issue #29: a viewer key read `webhook.secretHeader.value` and `webhook.routingKey` from GET /v1/policy.
// Secret policy fields are write-only now: every read (GET, the PUT's answer, the dashboard's policy page)
// shows `***set***` in their place, for a viewer and an operator key alike; a GET → PUT round trip sends
// the placeholder back and keeps the stored secret, which the escalation webhook still carries. The
// placeholder cannot carry a secret to another URL, nor stand for one that was never stored.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECRET_SET } from '@wayfinder/contracts';
import { FileKeyStore, keysFilePath } from '@wayfinder/file-stores';
import { escalationWebhookRequest } from '@wayfinder/history';
import { generateApiKey } from '@wayfinder/tenancy';
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

const SECRET = 'hdr-s3cret-value';
const ROUTING_KEY = 'rk-s3cret-routing';
const WEBHOOK = { url: 'https://hooks.example.com/wayfinder', format: 'pagerduty', routingKey: ROUTING_KEY, secretHeader: { name: 'X-Wayfinder-Secret', value: SECRET } };

describe('no key role reads a policy secret', () => {
  let running: RunningServices;
  let base: string;
  let operator: string;
  let viewer: string;
  let globex: string;

  beforeAll(async () => {
    const workingDir = mkdtempSync(join(tmpdir(), 'wf-secret-'));
    const store = new FileKeyStore(keysFilePath(workingDir));
    const op = generateApiKey('acme');
    const view = generateApiKey('acme', new Date(), undefined, 'viewer');
    await store.add(op.record);
    await store.add(view.record);
    const other = generateApiKey('globex');
    await store.add(other.record);
    globex = other.key;
    operator = op.key;
    viewer = view.key;
    running = await startWithGateway({ WAYFINDER_EGRESS_ALLOW: 'hooks.example.com' }, {}, { workingDir });
    base = running.gateway?.url ?? '';
  });
  afterAll(async () => {
    await running?.stop();
  });

  const stored = () => running.policyBook.tenant('acme')?.webhook;

  it('the PUT that sets the secrets answers with them redacted', async () => {
    const put = await call(base, 'PUT', '/v1/policy', { key: operator, body: { policy: { loop: { warning: 7 } }, webhook: WEBHOOK } });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain(SECRET);
    expect(JSON.stringify(put.body)).not.toContain(ROUTING_KEY);
    expect(put.body.webhook).toMatchObject({ routingKey: SECRET_SET, secretHeader: { name: 'X-Wayfinder-Secret', value: SECRET_SET } });
    expect(stored()?.secretHeader?.value).toBe(SECRET);
  });

  it.each([['viewer'], ['operator']])('GET /v1/policy and the dashboard page with the %s key show that the secrets are set, not their values', async (role) => {
    const key = role === 'viewer' ? viewer : operator;
    const read = await call(base, 'GET', '/v1/policy', { key });
    expect(read.status).toBe(200);
    expect(read.body.webhook).toEqual({ ...WEBHOOK, routingKey: SECRET_SET, secretHeader: { name: 'X-Wayfinder-Secret', value: SECRET_SET } });
    expect(JSON.stringify(read.body)).not.toContain(SECRET);
    expect(JSON.stringify(read.body)).not.toContain(ROUTING_KEY);

    const login = await fetch(`${base}/login`, { method: 'POST', body: new URLSearchParams({ key }), redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const page = await fetch(`${base}/policy`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Policy of acme');
    expect(html).not.toContain(SECRET);
    expect(html).not.toContain(ROUTING_KEY);
  });

  it('a GET → PUT round trip keeps the stored secrets, and the webhook still sends them', async () => {
    const read = await call(base, 'GET', '/v1/policy', { key: operator });
    const { schema, eventId, ts, ...rest } = read.body; // eslint-disable-line @typescript-eslint/no-unused-vars
    const put = await call(base, 'PUT', '/v1/policy', { key: operator, body: { ...rest, policy: { ...rest.policy, loop: { warning: 8 } } } });
    expect(put.status).toBe(200);
    expect(running.policyBook.policyOf('acme', 'any', 'a1').loop.warning).toBe(8);
    const webhook = stored();
    if (!webhook) throw new Error('no webhook stored');
    expect(webhook.secretHeader?.value).toBe(SECRET);
    expect(webhook.routingKey).toBe(ROUTING_KEY);
    const escalation = { schema: 'wayfinder.escalation.v1', eventId: 'e1', escalationId: 'x1', tenantId: 'acme', agentId: 'a1', ts: new Date().toISOString(), reason: 'frozen', deviations: [], correctionsTried: [] };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const request = escalationWebhookRequest(escalation as any, webhook.format, { routingKey: webhook.routingKey, secretHeader: webhook.secretHeader });
    expect(request.headers['x-wayfinder-secret']).toBe(SECRET);
    expect(JSON.stringify(request.body)).toContain(ROUTING_KEY);
  });

  it('the placeholder does not carry a secret to a new URL, nor stand for one never stored', async () => {
    const moved = await call(base, 'PUT', '/v1/policy', { key: operator, body: { policy: {}, webhook: { ...WEBHOOK, url: 'https://attacker.example/hook', routingKey: undefined, secretHeader: { name: 'X-Wayfinder-Secret', value: SECRET_SET } } } });
    expect(moved.status).toBe(400);
    expect(moved.body).toMatchObject({ field: 'webhook.secretHeader.value' });
    expect(stored()?.url).toBe(WEBHOOK.url);

    const none = await call(base, 'PUT', '/v1/policy', { key: globex, body: { policy: {}, webhook: { ...WEBHOOK, secretHeader: undefined, routingKey: SECRET_SET } } });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ field: 'webhook.routingKey' });
  });
});
