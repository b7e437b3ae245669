import type { INestApplication } from '@nestjs/common';
import { InProcessBus } from '@wayfinder/bus';
import type { Suppression } from '@wayfinder/contracts';
import { InMemoryHistoryStore } from '@wayfinder/history';
import { correctionRecord, deviationRecord, escalationRecord, stepRecord, T0 } from '@wayfinder/history/testing';
import { PolicyBook } from '@wayfinder/service-core';
import { startTestHttpApp } from './header-tenant.guard.testing';
import { OperationsHttpModule } from './operations-http.module';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function json(response: Promise<Response>): Promise<any> {
  return (await response).json();
}

describe('every query route answers only for the request\'s tenant', () => {
  let app: INestApplication;
  let url: string;
  const bus = new InProcessBus();
  const suppressions: Suppression[] = [];
  const store = new InMemoryHistoryStore({ now: () => T0 + 60_000 });

  beforeAll(async () => {
    // Two tenants with the same agent id; only acme's agent loops, is corrected and frozen.
    const acme = { tenantId: 'acme', agentId: 'a1' };
    const globex = { tenantId: 'globex', agentId: 'a1' };
    await store.append([
      stepRecord(acme, 1, T0), stepRecord(acme, 2, T0 + 1_000), deviationRecord(acme, 2, T0 + 1_100), correctionRecord(acme, 2, T0 + 1_200, { action: 'freeze' }), escalationRecord(acme, 1, T0 + 1_200),
      stepRecord(globex, 1, T0),
    ]);
    bus.subscribe('wayfinder.suppressions.v1', async (batch) => void suppressions.push(...batch.map((m) => m.payload)), { groupId: 'test' });
    await bus.start();
    ({ app, url } = await startTestHttpApp(OperationsHttpModule.forRoot({ store, bus, policies: new PolicyBook() })));
  });

  afterAll(async () => {
    await app.close();
    await bus.stop();
  });

  const get = (path: string, tenant?: string, extra: Record<string, string> = {}) =>
    fetch(`${url}${path}`, { headers: { ...(tenant && { 'x-test-tenant': tenant }), ...extra } });

  it('GET /v1/agents lists the tenant\'s agents with their state, and filters by state', async () => {
    const acme = await json(get('/v1/agents', 'acme'));
    expect(acme.agents.map((a: { agentId: string; state: string }) => [a.agentId, a.state])).toEqual([['a1', 'frozen']]);
    const globex = await json(get('/v1/agents?state=frozen', 'globex'));
    expect(globex.agents).toEqual([]);
    expect((await get('/v1/agents?state=sleepy', 'acme')).status).toBe(400);
    expect(await json(get('/v1/agents?state=sleepy', 'acme'))).toEqual({ error: expect.any(String), field: 'state' });
  });

  it('GET /v1/agents searches, filters by detector, pages by cursor, names a bad parameter, within the tenant only', async () => {
    const umbrella = (agentId: string) => ({ tenantId: 'umbrella', agentId });
    await store.append([stepRecord(umbrella('a1'), 1, T0), deviationRecord(umbrella('a1'), 1, T0 + 100), stepRecord(umbrella('a2'), 1, T0 + 2_000), stepRecord(umbrella('b3'), 1, T0 + 3_000)]);
    const first = await json(get('/v1/agents?sort=agentId&limit=2', 'umbrella'));
    expect(first.agents.map((a: { agentId: string }) => a.agentId)).toEqual(['a1', 'a2']);
    expect(first.total).toBe(3);
    const next = await json(get(`/v1/agents?sort=agentId&limit=2&cursor=${first.nextCursor}`, 'umbrella'));
    expect(next.agents.map((a: { agentId: string }) => a.agentId)).toEqual(['b3']);
    expect(next.nextCursor).toBeNull();
    expect((await json(get('/v1/agents?q=B3', 'umbrella'))).agents.map((a: { agentId: string }) => a.agentId)).toEqual(['b3']);
    const flagged = await json(get(`/v1/agents?detector=${first.agents[0].detectors[0]}`, 'umbrella'));
    expect(flagged.agents.map((a: { agentId: string }) => a.agentId)).toEqual(['a1']);
    // globex has its own a1 and nothing flagged: another tenant's agents never show.
    expect((await json(get('/v1/agents?q=a', 'globex'))).agents.map((a: { tenantId: string }) => a.tenantId)).toEqual(['globex']);
    expect((await json(get(`/v1/agents?detector=${first.agents[0].detectors[0]}`, 'globex'))).agents).toEqual([]);
    for (const [query, field] of [['limit=0', 'limit'], ['limit=x', 'limit'], ['sort=random', 'sort'], ['detector=psychic', 'detector'], ['cursor=nope', 'cursor'], [`sort=lastSeen&cursor=${first.nextCursor}`, 'cursor']]) {
      const answer = await get(`/v1/agents?${query}`, 'umbrella');
      expect([query, answer.status, ((await answer.json()) as { field?: string }).field]).toEqual([query, 400, field]);
    }
  });

  it('GET /v1/agents/:id/timeline is 404 for the same agent id under another tenant', async () => {
    const acme = await json(get('/v1/agents/a1/timeline', 'acme'));
    expect(acme.deviations).toHaveLength(1);
    expect(acme.corrections[0].outcome).toBe('frozen');
    const initech = await get('/v1/agents/a1/timeline', 'initech');
    expect(initech.status).toBe(404);
    expect(((await initech.json()) as { field?: string }).field).toBe('agentId');
    const globex = await json(get('/v1/agents/a1/timeline', 'globex'));
    expect(globex.deviations).toEqual([]);
  });

  it('GET /v1/escalations?open=true and GET /v1/fleet count only the tenant\'s', async () => {
    expect((await json(get('/v1/escalations?open=true', 'acme'))).escalations).toHaveLength(1);
    expect((await json(get('/v1/escalations?open=true', 'globex'))).escalations).toEqual([]);
    expect((await json(get('/v1/fleet', 'acme'))).states.frozen).toBe(1);
    expect((await json(get('/v1/fleet', 'globex'))).states).toMatchObject({ frozen: 0, working: 1 });
  });

  it('POST /v1/deviations/:id/false-positive: 404 for another tenant, 403 for a viewer, suppression for the operator', async () => {
    const path = '/v1/deviations/d-a1-2/false-positive';
    expect((await fetch(`${url}${path}`, { method: 'POST', headers: { 'x-test-tenant': 'globex', 'x-test-operator': '1' } })).status).toBe(404);
    expect((await fetch(`${url}${path}`, { method: 'POST', headers: { 'x-test-tenant': 'acme' } })).status).toBe(403);
    const marked = await fetch(`${url}${path}`, { method: 'POST', headers: { 'x-test-tenant': 'acme', 'x-test-operator': '1' } });
    expect(marked.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(suppressions).toHaveLength(1);
    expect(suppressions[0]).toMatchObject({ tenantId: 'acme', agentId: 'a1', patterns: [{ detector: 'generic_repeat', tool: 'search', argsHash: 'abc', deviationId: 'd-a1-2' }] });
    const fleet = await json(get('/v1/fleet', 'acme'));
    expect(fleet.topDetectors[0]).toMatchObject({ detector: 'generic_repeat', falsePositives: 1, falsePositiveShare: 1 });
  });

  it('refuses a request without a tenant (401) and one naming another tenant (403) unless local', async () => {
    expect((await get('/v1/fleet')).status).toBe(401);
    expect((await get('/v1/agents?tenantId=acme', 'globex')).status).toBe(403);
    const local = await json(get('/v1/agents?tenantId=acme', 'local', { 'x-test-local': '1' }));
    expect(local.agents).toHaveLength(1);
  });
});
