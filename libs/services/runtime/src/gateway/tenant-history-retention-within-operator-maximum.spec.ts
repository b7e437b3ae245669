// History retention per tenant: a policy's `historyRetentionMs` sets how long the tenant's history is
// kept, the operator's WAYFINDER_HISTORY_RETENTION_MAX_MS bounds it (a policy asking more is a 400 naming
// the field), and the store applies it at once, to that tenant only; the policy page shows it with the
// operator's default and maximum.
import type { StepSummary } from '@wayfinder/history';
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

const ACME = 'acme-retention-key';
const GLOBEX = 'globex-retention-key';
const HOUR = 3_600_000;

/** A step recorded `agoMs` before now, as the history recorder writes one. */
function step(tenantId: string, agentId: string, agoMs: number): StepSummary {
  return {
    id: `step:${agentId}-0`, kind: 'step', tenantId, agentId, taskId: 'report', runId: null, ts: new Date(Date.now() - agoMs).toISOString(),
    seq: 0, stepKind: 'action', tool: 'search', argsHash: null, milestoneId: null, progress: 0, completed: [], method: 'signal', note: null, tokens: null,
  };
}

describe('a tenant’s history retention, within the operator’s maximum', () => {
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${ACME},globex:${GLOBEX}`, WAYFINDER_HISTORY_RETENTION_MAX_MS: String(HOUR) });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('refuses a retention past the maximum or under a minute, naming the field', async () => {
    const over = await call(base, 'PATCH', '/v1/policy', { key: ACME, body: { historyRetentionMs: 2 * HOUR } });
    expect(over).toMatchObject({ status: 400, body: { field: 'historyRetentionMs' } });
    expect(over.body.error).toContain('WAYFINDER_HISTORY_RETENTION_MAX_MS');
    expect(await call(base, 'PATCH', '/v1/policy', { key: ACME, body: { historyRetentionMs: 30 } })).toMatchObject({ status: 400, body: { field: 'historyRetentionMs' } });
    expect(await call(base, 'POST', '/v1/policy/check', { key: ACME, body: { historyRetentionMs: 2 * HOUR } })).toMatchObject({ status: 200, body: { ok: false, field: 'historyRetentionMs' } });
  });

  it('keeps the default (the maximum when it is shorter than 7 days) until a tenant shortens its own', async () => {
    // Ten minutes old: within the default (one hour here) for both.
    await running.history.append([step('acme', 'old', 10 * 60_000), step('globex', 'old', 10 * 60_000), step('acme', 'new', 0)]);
    expect((await call(base, 'GET', '/v1/agents', { key: ACME })).body.total).toBe(2);

    expect((await call(base, 'PATCH', '/v1/policy', { key: ACME, body: { historyRetentionMs: 5 * 60_000 } })).status).toBe(200);
    const acme = await call(base, 'GET', '/v1/agents', { key: ACME });
    expect(acme.body.agents.map((a: { agentId: string }) => a.agentId)).toEqual(['new']);
    expect(await running.history.agentHistory('acme', 'old')).toEqual([]);
    // The other tenant keeps the default.
    expect((await call(base, 'GET', '/v1/agents', { key: GLOBEX })).body.agents.map((a: { agentId: string }) => a.agentId)).toEqual(['old']);
    // An append older than the tenant's retention is not kept.
    expect(await running.history.append([step('acme', 'late', 6 * 60_000)])).toBe(0);
    expect(await running.history.append([step('globex', 'late', 6 * 60_000)])).toBe(1);
  });

  it('shows the effective retention, the default and the maximum on the policy page', async () => {
    const html = await (await fetch(`${base}/policy`, { headers: { authorization: `Bearer ${ACME}` } })).text();
    expect(html).toMatch(/name="historyRetentionMs"[^>]*data-original="300000"/);
    expect(html).toContain('5 minutes');
    expect(html).toContain('at most 1 hour');
    const other = await (await fetch(`${base}/policy`, { headers: { authorization: `Bearer ${GLOBEX}` } })).text();
    expect(other).toMatch(/name="historyRetentionMs"[^>]*data-original="3600000"/);
  });
});
