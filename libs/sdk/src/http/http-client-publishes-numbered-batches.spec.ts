/**
 * Over HTTP, the helpers number seq from 0, pair each observation with its action's call id, leave the
 * tenant to the key, send batches of `batchSize` with the key in `Authorization`, and a step the gateway
 * rejects comes back from flush naming its field while the rest of its batch is accepted.
 */
import { connectHttp } from '../connect';
import { ContractGateway } from '../testing/contract-gateway.testing';

describe('HTTP client publishing', () => {
  const gateway = new ContractGateway();
  let baseUrl: string;
  beforeAll(async () => (baseUrl = await gateway.listen()));
  afterAll(() => gateway.close());

  it('numbers, pairs and batches steps, and reports the rejected one by field', async () => {
    const client = connectHttp({ baseUrl, apiKey: 'wf_local_test', agentId: 'agent-7', taskId: 'report', runId: 'r1', batchSize: 100 });
    for (let i = 0; i < 124; i++) {
      const callId = await client.action('read_file', { path: `/data/${i}.csv` });
      await client.observation('read_file', { callId, content: `row ${i}` });
    }
    await client.message('done', 'assistant', { type: 'output' });
    await client.milestone('m1', 'done', 'totals computed');
    // An id over 128 characters breaks the contract: the gateway rejects this one step only.
    await client.step({ kind: 'feedback', feedback: { text: 'keep going' } }, { attributes: { ok: true } });
    await client.step({ kind: 'action', action: { tool: 'x'.repeat(200), args: {} } });
    const result = await client.flush();

    expect(result.accepted).toBe(251);
    expect(result.rejected).toHaveLength(1);
    expect(result.rejected[0]).toMatchObject({ index: 51, field: 'events[51].action.tool' });
    expect(result.rejected[0].step.seq).toBe(251);

    const posts = gateway.requests.filter((r) => r.url === '/v1/steps');
    expect(posts.map((p) => (JSON.parse(p.body) as unknown[]).length)).toEqual([100, 100, 52]);
    expect(posts.every((p) => p.headers.authorization === 'Bearer wf_local_test')).toBe(true);
    expect(JSON.parse(posts[0].body)[0].tenantId).toBeUndefined();

    expect(gateway.steps.map((s) => s.seq)).toEqual([...Array(251).keys()]);
    const actions = gateway.steps.filter((s) => s.kind === 'action');
    const observations = gateway.steps.filter((s) => s.kind === 'observation');
    expect(observations.map((o) => o.kind === 'observation' && o.observation.callId)).toEqual(actions.map((a) => a.kind === 'action' && a.action.callId));
    expect(new Set(gateway.steps.map((s) => s.eventId)).size).toBe(251);
    expect(gateway.steps.every((s) => s.agentId === 'agent-7' && s.taskId === 'report' && s.runId === 'r1' && s.tenantId === 'local')).toBe(true);
    await client.close();
  });
});
