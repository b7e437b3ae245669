// POST /v1/tasks and PUT /v1/policy validate with the contracts: a bad field is a 400 naming it (a task
// whose milestones form a cycle names `milestones`), nothing invalid is published, and a valid policy is
// applied live: the services' policy book resolves it for the tenant's next step.
import type { RunningServices } from '../runtime';
import { call, startWithGateway } from './gateway.testing';

const KEY = 'acme-secret-key';

describe('task and policy validation', () => {
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${KEY}` });
    base = running.gateway!.url;
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('names the bad field of a task', async () => {
    expect(await call(base, 'POST', '/v1/tasks', { key: KEY, body: { taskId: 't1' } })).toMatchObject({ status: 400, body: { field: 'goal' } });
    expect(await call(base, 'POST', '/v1/tasks', { key: KEY, body: { taskId: 't1', goal: 'x', maxSteps: -3 } })).toMatchObject({ status: 400, body: { field: 'maxSteps' } });
    const cycle = {
      taskId: 't2',
      goal: 'a then b',
      milestones: [
        { id: 'a', description: 'first', dependsOn: ['b'] },
        { id: 'b', description: 'second', dependsOn: ['a'] },
      ],
    };
    const refused = await call(base, 'POST', '/v1/tasks', { key: KEY, body: cycle });
    expect(refused).toMatchObject({ status: 400, body: { field: 'milestones', error: expect.stringMatching(/^cycle/) } });
    expect(await call(base, 'POST', '/v1/tasks', { key: KEY, raw: '{"taskId":', contentType: 'application/json' })).toMatchObject({ status: 400 });
    expect(await running.mapStore.get('acme', 't2')).toBeUndefined();
  });

  it('names the bad field of a policy and applies a good one live', async () => {
    expect(await call(base, 'PUT', '/v1/policy', { key: KEY, body: { policy: { loop: { warning: 'often' } } } })).toMatchObject({ status: 400, body: { field: 'policy.loop.warning' } });
    expect(await call(base, 'PUT', '/v1/policy', { key: KEY, body: { policy: { lopp: {} } } })).toMatchObject({ status: 400, body: { field: 'policy.lopp' } });
    const stored = await call(base, 'PUT', '/v1/policy', { key: KEY, body: { policy: { loop: { warning: 3, critical: 6 } } } });
    expect(stored).toMatchObject({ status: 200, body: { schema: 'wayfinder.policy.v1', tenantId: 'acme', policy: { loop: { warning: 3, critical: 6 } } } });
    expect(running.policyBook.policyOf('acme', 'any-task', 'any-agent').loop.warning).toBe(3);
    expect((await call(base, 'GET', '/v1/policy', { key: KEY })).body.eventId).toBe(stored.body.eventId);
  });
});
