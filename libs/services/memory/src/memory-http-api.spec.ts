/**
 * The memory HTTP API on a real listening socket (global fetch against `listen(0)`): the assembled
 * context of an agent, writing and querying memories, the checkpoint stack, and 400s that name the field.
 */
import { request, seedAgent, startEmbeddedMemoryService, type AgentRef, type EmbeddedMemoryService } from './memory-service.testing';

describe('memory HTTP API', () => {
  let service: EmbeddedMemoryService;
  const agent: AgentRef = { tenantId: 'acme', taskId: 'report', agentId: 'writer-1' };
  const agentPath = `/v1/tenants/acme/agents/writer-1/tasks/report`;

  beforeAll(async () => {
    service = await startEmbeddedMemoryService();
    await seedAgent(service, agent);
  });
  afterAll(() => service.stop());

  it('assembles the context: charter first, then STATE, goal board, memories and the log', async () => {
    const { status, body } = await request(service.url, 'GET', `${agentPath}/context?budget=4000`);
    expect(status).toBe(200);
    expect(body.sections.map((s: { name: string }) => s.name)).toEqual(['charter', 'state', 'goal_board', 'memories', 'log']);
    expect(body.text.startsWith('CHARTER\nGoal: Write a market report on 5 competitors of Acme.')).toBe(true);
    expect(body.text).toContain('3. Do not cite Wikipedia (from user feedback)');
    expect(body.text).toContain('stage: 2/3 — collect pricing of each competitor');
    expect(body.text).toContain('competitors 3/5 (');
    expect(body.text).toContain('RELEVANT MEMORIES (milestone pricing)\n- [correction] Do not cite Wikipedia');
    expect(body.text).toContain('conclusion: Result: found 3 competitors: Alpha, Beta and Gamma.'); // the log of a milestone behind
    expect(body).toMatchObject({ tenantId: 'acme', agentId: 'writer-1', taskId: 'report', budgetTokens: 4000, currentMilestoneId: 'pricing', overBudget: false });
  });

  it('prunes heavily under a small budget but keeps every constraint', async () => {
    const { status, body } = await request(service.url, 'GET', `${agentPath}/context?budget=120`);
    expect(status).toBe(200);
    expect(body.pruning).toBe('heavy');
    for (const constraint of ['Only use public sources', 'Never contact the competitors', 'Do not cite Wikipedia']) expect(body.text).toContain(constraint);
  });

  it('rejects a bad budget with a 400 naming it', async () => {
    for (const budget of ['abc', '10', '2.5']) {
      const { status, body } = await request(service.url, 'GET', `${agentPath}/context?budget=${budget}`);
      expect(status).toBe(400);
      expect(body.fields).toEqual(['budget']);
      expect(body.message).toMatch(/^budget: /);
    }
  });

  it('lists the checkpoints, oldest first', async () => {
    const { status, body } = await request(service.url, 'GET', `${agentPath}/checkpoints`);
    expect(status).toBe(200);
    expect(body.checkpoints).toEqual([{ id: 'cp:report:collect:3', milestoneId: 'collect', seq: 3, state: expect.stringContaining('STATE') }]);
  });

  it('answers 404 for an agent the tenant has no memory of', async () => {
    expect((await request(service.url, 'GET', `/v1/tenants/acme/agents/nobody/tasks/unknown-task/context`)).status).toBe(404);
    expect((await request(service.url, 'GET', `/v1/tenants/acme/agents/nobody/tasks/unknown-task/checkpoints`)).status).toBe(404);
  });

  it('writes a memory the rules accept (201) and reports why one is refused (200)', async () => {
    const kept = await request(service.url, 'POST', '/v1/tenants/acme/memories', { text: 'The user prefers tables over prose', source: 'message', taskId: 'report' });
    expect(kept.status).toBe(201);
    expect(kept.body).toMatchObject({ write: true, kind: 'preference', reasons: ['preference'] });
    expect(kept.body.id).toMatch(/^mem-/);

    const refused = await request(service.url, 'POST', '/v1/tenants/acme/memories', { text: 'the session id is 42af for now', source: 'message', taskId: 'report' });
    expect(refused.status).toBe(200);
    expect(refused.body.write).toBe(false);
    expect(refused.body.reasons[0]).toMatch(/temporary value/);
  });

  it('queries the tenant’s memories, nearest first, with filters', async () => {
    const { status, body } = await request(service.url, 'POST', '/v1/tenants/acme/memories/query', { text: 'does the user prefer tables', limit: 2 });
    expect(status).toBe(200);
    expect(body.memories).toHaveLength(2);
    expect(body.memories[0]).toMatchObject({ kind: 'preference', text: 'The user prefers tables over prose', taskId: 'report' });
    expect(body.memories[0].score).toBeGreaterThan(body.memories[1].score);

    const corrections = await request(service.url, 'POST', '/v1/tenants/acme/memories/query', { text: 'wikipedia', kind: 'correction' });
    expect(corrections.body.memories.map((m: { text: string }) => m.text)).toEqual(['Do not cite Wikipedia']);
  });

  it('rejects bad memory input with a 400 naming each field', async () => {
    const cases: Array<[unknown, string[]]> = [
      [{ source: 'message', taskId: 'report' }, ['text']],
      [{ text: 'The user prefers tables', source: 'rumour', taskId: 'report' }, ['source']],
      [{ text: 'The user prefers tables', source: 'message' }, ['taskId']],
      [{ text: '   ', source: 'message', taskId: 'report', verified: 'yes' }, ['text', 'verified']],
      [{ text: 'The user prefers tables', source: 'message', taskId: 'report', tenantId: 'other' }, ['tenantId']],
    ];
    for (const [body, fields] of cases) {
      const response = await request(service.url, 'POST', '/v1/tenants/acme/memories', body);
      expect([response.status, response.body.fields]).toEqual([400, fields]);
      for (const field of fields) expect(response.body.message).toContain(field);
    }
    const query = await request(service.url, 'POST', '/v1/tenants/acme/memories/query', { text: 'x', limit: 0 });
    expect([query.status, query.body.fields]).toEqual([400, ['limit']]);
  });

  it('rejects a body that is not JSON with a 400', async () => {
    const response = await request(service.url, 'POST', '/v1/tenants/acme/memories', '{"text": ');
    expect(response.status).toBe(400);
  });
});
