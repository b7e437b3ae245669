// The operators' surface mounted on the gateway: the query API answers for the key's tenant only (another
// tenant named → 403, no key → 401), the dashboard without a key renders the login form, the login form
// exchanges a key for a session cookie the guard honours, both route families under /v1/agents answer, and
// a resume through the gateway appends the ack history record that closes the escalation in the views.
import type { RunningServices } from '../runtime';
import { call, loopSteps, REPORT_TASK, startWithGateway } from './gateway.testing';

/** Polls an HTTP condition (the pipeline is asynchronous) until it holds, or fails after `ms`. */
async function eventually(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const ACME = 'acme-secret-key';
const GLOBEX = 'globex-secret-key';

describe('the gateway serving the operations module', () => {
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${ACME},globex:${GLOBEX}` });
    base = running.gateway!.url;
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('answers for the key tenant, renders the login form without a key, honours the session and records a resume', async () => {
    await call(base, 'POST', '/v1/tasks', { key: ACME, body: REPORT_TASK });
    await call(base, 'POST', '/v1/steps', { key: ACME, body: loopSteps('a1', 25) });
    await eventually(async () => (await call(base, 'GET', '/v1/agents/a1/corrections', { key: ACME })).body.corrections.length > 0, 'a correction of a1');
    await eventually(async () => (await call(base, 'GET', '/v1/agents/a1/timeline', { key: ACME })).status === 200, 'the timeline of a1');

    // Query API: the key's tenant, never another's.
    expect(await call(base, 'GET', '/v1/fleet', { key: ACME })).toMatchObject({ status: 200, body: { tenantId: 'acme' } });
    expect((await call(base, 'GET', '/v1/fleet', { key: ACME })).body.agents).toBeGreaterThan(0);
    expect(await call(base, 'GET', '/v1/fleet', { key: GLOBEX })).toMatchObject({ status: 200, body: { tenantId: 'globex', agents: 0 } });
    // A key reads one tenant, its own, even when others have history.
    expect(await call(base, 'GET', '/v1/tenants', { key: ACME })).toMatchObject({ status: 200, body: { tenants: ['acme'] } });
    expect(await call(base, 'GET', '/v1/tenants', { key: GLOBEX })).toMatchObject({ status: 200, body: { tenants: ['globex'] } });
    expect((await call(base, 'GET', '/v1/tenants?tenantId=acme', { key: GLOBEX })).status).toBe(403);
    expect((await call(base, 'GET', '/v1/tenants')).status).toBe(401);
    expect((await call(base, 'GET', '/v1/agents?tenantId=acme', { key: GLOBEX })).status).toBe(403);
    expect(await call(base, 'GET', '/v1/agents/a1/timeline', { key: GLOBEX })).toMatchObject({ status: 404, body: { field: 'agentId' } });
    expect((await call(base, 'GET', '/v1/agents')).status).toBe(401);
    expect((await call(base, 'GET', '/v1/agents/a1/corrections')).status).toBe(401);

    // Dashboard pages without a key: the login form, not a JSON 401.
    const page = await fetch(`${base}/escalations`);
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('<form');

    // Login: a bad key is refused; a good one sets the session cookie the guard reads.
    expect((await fetch(`${base}/login`, { method: 'POST', body: new URLSearchParams({ key: 'nope' }), redirect: 'manual' })).status).toBe(401);
    const login = await fetch(`${base}/login`, { method: 'POST', body: new URLSearchParams({ key: ACME }), redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    expect(cookie).toMatch(/^wf_session=/);
    expect(await call(base, 'GET', '/v1/fleet', { headers: { cookie } })).toMatchObject({ status: 200, body: { tenantId: 'acme' } });
    expect((await call(base, 'GET', '/v1/fleet?tenantId=globex', { headers: { cookie } })).status).toBe(403);
    const fleetPage = await fetch(`${base}/`, { headers: { cookie } });
    expect(fleetPage.status).toBe(200);
    expect(await fleetPage.text()).toContain('a1');

    // A resume through the gateway lands in the history as an ack of subject resume.
    expect(await call(base, 'POST', '/v1/agents/a1/resume', { key: ACME, body: { reason: 'checked by a person' } })).toMatchObject({ status: 202 });
    const acks = await running.history.agentHistory('acme', 'a1', { kinds: ['ack'] });
    expect(acks).toEqual([expect.objectContaining({ kind: 'ack', subject: 'resume', note: 'checked by a person', tenantId: 'acme', agentId: 'a1' })]);
    expect(acks[0].id).toMatch(/^ack:resume:/);
    expect(await running.history.agentHistory('globex', 'a1', { kinds: ['ack'] })).toEqual([]);
  });
});
