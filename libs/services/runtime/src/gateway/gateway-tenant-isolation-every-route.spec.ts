// Every route checks the key: no key, a malformed header or an unknown key → 401; a body or query naming
// another tenant → 403; tenant B sees none of tenant A's corrections, policy or agents (empty, its own
// defaults, 404), and nothing B sends reaches A.
import type { RunningServices } from '../runtime';
import { call, eventually, loopSteps, REPORT_TASK, startWithGateway } from './gateway.testing';

const A = 'acme-secret-key';
const B = 'globex-secret-key';

describe('tenant isolation on every route', () => {
  let running: RunningServices;
  let base: string;
  let correctionId: string;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${A},globex:${B}` });
    base = running.gateway!.url;
    await call(base, 'POST', '/v1/tasks', { key: A, body: REPORT_TASK });
    await call(base, 'POST', '/v1/steps', { key: A, body: loopSteps('looper', 25) });
    await eventually(async () => (await call(base, 'GET', '/v1/agents/looper/corrections', { key: A })).body.corrections.length > 0, 20_000, "acme's first correction");
    correctionId = (await call(base, 'GET', '/v1/agents/looper/corrections', { key: A })).body.corrections[0].eventId;
    await call(base, 'PUT', '/v1/policy', { key: A, body: { policy: { loop: { warning: 4 } } } });
  });
  afterAll(async () => {
    await running?.stop();
  });

  // Three columns in every row: jest passes `done` to a test whose row is shorter than its parameters.
  const routes: Array<[string, string, unknown]> = [
    ['POST', '/v1/steps', loopSteps('x', 1)],
    ['POST', '/v1/tasks', REPORT_TASK],
    ['GET', '/v1/agents/looper/corrections', undefined],
    ['POST', '/v1/agents/looper/corrections/some-id/ack', {}],
    ['POST', '/v1/agents/looper/resume', {}],
    ['GET', '/v1/policy', undefined],
    ['PUT', '/v1/policy', { policy: {} }],
    // Two more at most: the 10th wrong key from one address within a minute blocks key checks (429). The
    // keys routes' other methods: keys-routes-operator-only-per-tenant.spec.ts.
    ['GET', '/v1/fleet/events', undefined],
    ['GET', '/v1/keys', undefined],
  ];

  it.each(routes)('%s %s: no key, a malformed header and an unknown key → 401 with the error body', async (method, path, body) => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer wf_acme_guessed' }] as Array<Record<string, string>>) {
      const answer = await call(base, method, path, { body, headers });
      expect(answer.status).toBe(401);
      expect(typeof answer.body.error).toBe('string');
    }
  });

  it.each(routes)('%s %s: ?tenantId of another tenant → 403', async (method, path, body) => {
    const answer = await call(base, method, `${path}?tenantId=acme`, { key: B, body });
    expect(answer).toMatchObject({ status: 403, body: { field: 'tenantId' } });
  });

  it('refuses bodies naming another tenant (403) and publishes nothing of them', async () => {
    const steps = [...loopSteps('b-agent', 1), ...loopSteps('looper', 1, { tenantId: 'acme' })];
    expect(await call(base, 'POST', '/v1/steps', { key: B, body: steps })).toMatchObject({ status: 403, body: { field: 'tenantId', index: 2 } });
    expect(await call(base, 'POST', '/v1/tasks', { key: B, body: { ...REPORT_TASK, tenantId: 'acme' } })).toMatchObject({ status: 403, body: { field: 'tenantId' } });
    expect(await call(base, 'PUT', '/v1/policy', { key: B, body: { tenantId: 'acme', policy: { loop: { warning: 99 } } } })).toMatchObject({ status: 403 });
    expect(running.policyBook.policyOf('acme', 'report', 'looper').loop.warning).toBe(4);
  });

  it("shows B none of A's corrections, agents or policy", async () => {
    expect(await call(base, 'GET', '/v1/agents/looper/corrections', { key: B })).toMatchObject({ status: 200, body: { corrections: [] } });
    expect((await call(base, 'GET', `/v1/agents/looper/corrections?wait=1`, { key: B })).body.corrections).toEqual([]);
    expect((await call(base, 'POST', `/v1/agents/looper/corrections/${correctionId}/ack`, { key: B, body: {} })).status).toBe(404);
    expect((await call(base, 'POST', '/v1/agents/looper/resume', { key: B, body: {} })).status).toBe(404);
    const policyB = await call(base, 'GET', '/v1/policy', { key: B });
    expect(policyB.status).toBe(200);
    expect(policyB.body.tenantId).toBe('globex');
    expect(policyB.body.policy.loop.warning).not.toBe(4);
    // A sees its own.
    expect((await call(base, 'GET', '/v1/policy', { key: A })).body.policy.loop.warning).toBe(4);
    expect((await call(base, 'POST', `/v1/agents/looper/corrections/${correctionId}/ack`, { key: A, body: { outcome: 'applied' } })).status).toBe(202);
  });
});
