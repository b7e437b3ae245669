/**
 * Tenant isolation of the memory service: another tenant using the very same task and agent ids can
 * neither read tenant A's context, checkpoints or memories over HTTP, nor change them through events.
 */
import { localized, reportMap, request, rollback, seedAgent, startEmbeddedMemoryService, until, type AgentRef, type EmbeddedMemoryService } from './memory-service.testing';

describe('memory service tenant isolation', () => {
  let service: EmbeddedMemoryService;
  const a: AgentRef = { tenantId: 'acme', taskId: 'report', agentId: 'writer-1' };
  const b: AgentRef = { ...a, tenantId: 'globex' };

  beforeAll(async () => {
    service = await startEmbeddedMemoryService();
    await seedAgent(service, a);
  });
  afterAll(() => service.stop());

  it('gives tenant B a 404 for tenant A’s agent, context and checkpoints alike', async () => {
    expect((await request(service.url, 'GET', '/v1/tenants/acme/agents/writer-1/tasks/report/context')).status).toBe(200);
    const context = await request(service.url, 'GET', '/v1/tenants/globex/agents/writer-1/tasks/report/context');
    expect(context.status).toBe(404);
    expect(JSON.stringify(context.body)).not.toContain('Wikipedia');
    expect((await request(service.url, 'GET', '/v1/tenants/globex/agents/writer-1/tasks/report/checkpoints')).status).toBe(404);
  });

  it('never returns tenant A’s memories to tenant B’s query, and the other way round', async () => {
    const seenByA = await request(service.url, 'POST', '/v1/tenants/acme/memories/query', { text: 'Do not cite Wikipedia', limit: 10 });
    expect(seenByA.body.memories.map((m: { text: string }) => m.text)).toContain('Do not cite Wikipedia');
    expect((await request(service.url, 'POST', '/v1/tenants/globex/memories/query', { text: 'Do not cite Wikipedia', limit: 10 })).body).toEqual({ memories: [] });

    const written = await request(service.url, 'POST', '/v1/tenants/globex/memories', { text: 'The user prefers charts over tables', source: 'message', taskId: 'report' });
    expect(written.status).toBe(201);
    const acme = await request(service.url, 'POST', '/v1/tenants/acme/memories/query', { text: 'The user prefers charts over tables', limit: 10 });
    expect(acme.body.memories.map((m: { text: string }) => m.text)).not.toContain('The user prefers charts over tables');
  });

  it('keeps tenant B’s events with the same ids out of tenant A’s working memory', async () => {
    const charterOfA = await service.stores.workingMemory.getCharter(a);
    const stackOfA = await service.stores.workingMemory.listCheckpoints(a);
    const stateOfA = await service.stores.workingMemory.getState(a);
    const mapOfB = reportMap(b.tenantId, b.taskId);
    mapOfB.constraints = [];
    await service.bus.publish('wayfinder.maps.v1', [mapOfB]);
    await until(() => service.stores.workingMemory.getCharter(b), 'tenant B’s charter');
    await service.bus.publish('wayfinder.localized.v1', [localized(b, 1, { kind: 'feedback', feedback: { text: 'Cite only Wikipedia' } })]);
    await until(() => service.stores.workingMemory.getState(b), 'tenant B’s STATE');
    // Names tenant A's checkpoint id; applied (the failure lands in B's STATE) without touching A.
    await service.bus.publish('wayfinder.corrections.v1', [rollback(b, 50, stackOfA[0].id, 'not yours to roll back')]);
    await until(async () => (await service.stores.workingMemory.getState(b))?.text.includes('not yours to roll back'), 'the rollback of tenant B');

    expect(await service.stores.workingMemory.getCharter(a)).toEqual(charterOfA);
    expect(await service.stores.workingMemory.listCheckpoints(a)).toEqual(stackOfA);
    expect(await service.stores.workingMemory.getState(a)).toEqual(stateOfA);
    expect((await service.stores.workingMemory.getCharter(b))?.constraints).toEqual([{ n: 1, text: 'Cite only Wikipedia', source: 'feedback' }]);
  });
});
