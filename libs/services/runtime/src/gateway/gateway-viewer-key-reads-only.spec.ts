// A viewer key (`wayfinder keys create --role viewer`) reads the query API and the dashboard; every route
// that acts (resume, ack, false positive, policy set, posting steps or tasks) answers 403 naming the role,
// with a Bearer key and with a dashboard session alike, and changes nothing. The operator key of the same
// tenant is accepted on the same routes, so the 403 is the role's.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileKeyStore, keysFilePath } from '@wayfinder/file-stores';
import { generateApiKey } from '@wayfinder/tenancy';
import type { RunningServices } from '../runtime';
import { call, eventually, loopSteps, REPORT_TASK, startWithGateway } from './gateway.testing';

describe('a viewer key reads and never acts', () => {
  let running: RunningServices;
  let base: string;
  let operator: string;
  let viewer: string;
  let correctionId: string;
  let deviationId: string;

  beforeAll(async () => {
    const workingDir = mkdtempSync(join(tmpdir(), 'wf-viewer-'));
    const store = new FileKeyStore(keysFilePath(workingDir));
    const op = generateApiKey('acme');
    const view = generateApiKey('acme', new Date(), undefined, 'viewer');
    await store.add(op.record);
    await store.add(view.record);
    operator = op.key;
    viewer = view.key;
    running = await startWithGateway({}, {}, { workingDir });
    base = running.gateway!.url;
    await call(base, 'POST', '/v1/tasks', { key: operator, body: REPORT_TASK });
    await call(base, 'POST', '/v1/steps', { key: operator, body: loopSteps('a1', 25) });
    await eventually(async () => (await call(base, 'GET', '/v1/agents/a1/corrections', { key: operator })).body.corrections.length > 0, 20_000, 'a correction of a1');
    await eventually(async () => ((await call(base, 'GET', '/v1/agents/a1/timeline', { key: operator })).body?.deviations ?? []).length > 0, 20_000, 'a deviation in the timeline of a1');
    correctionId = (await call(base, 'GET', '/v1/agents/a1/corrections', { key: operator })).body.corrections[0].eventId;
    deviationId = (await call(base, 'GET', '/v1/agents/a1/timeline', { key: operator })).body.deviations[0].deviationId;
  });
  afterAll(async () => {
    await running?.stop();
  });

  const reads = ['/v1/agents', '/v1/agents?state=looping', '/v1/agents/a1/timeline', '/v1/escalations?open=true', '/v1/fleet', '/v1/policy', '/v1/agents/a1/corrections', '/', '/agents/a1', '/escalations', '/policy'];

  it.each(reads)('GET %s answers the viewer (200)', async (path) => {
    const answer = await call(base, 'GET', path, { key: viewer });
    expect(answer.status).toBe(200);
  });

  // Three columns in every row (see gateway-tenant-isolation-every-route.spec.ts).
  const writes: Array<[string, string, () => unknown]> = [
    ['POST', '/v1/agents/a1/resume', () => ({ reason: 'viewer tries' })],
    ['POST', '/v1/agents/a1/corrections/:correction/ack', () => ({ outcome: 'ignored' })],
    ['POST', '/v1/deviations/:deviation/false-positive', () => undefined],
    ['PUT', '/v1/policy', () => ({ policy: { loop: { warning: 9 } } })],
    ['POST', '/v1/steps', () => loopSteps('v1', 1)],
    ['POST', '/v1/tasks', () => ({ ...REPORT_TASK, taskId: 'viewer-task' })],
  ];
  const pathOf = (path: string) => path.replace(':correction', correctionId).replace(':deviation', deviationId);

  it.each(writes)('%s %s: the viewer key → 403 naming the role, nothing changes', async (method, path, body) => {
    const answer = await call(base, method, pathOf(path), { key: viewer, body: body() });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ field: 'role' });
    expect(answer.body.error).toMatch(/viewer role/);
  });

  it('changed nothing for the viewer, and a viewer session is refused the same way', async () => {
    expect(running.policyBook.policyOf('acme', 'report', 'a1').loop.warning).not.toBe(9);
    expect(await running.history.agentHistory('acme', 'a1', { kinds: ['ack', 'false-positive'] })).toEqual([]);
    expect(await running.history.agent('acme', 'v1')).toBeUndefined();

    const login = await fetch(`${base}/login`, { method: 'POST', body: new URLSearchParams({ key: viewer }), redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const page = await fetch(`${base}/agents/a1`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Agent a1');
    expect(html).not.toContain('Mark as false positive');
    const marked = await call(base, 'POST', `/v1/deviations/${deviationId}/false-positive`, { headers: { cookie } });
    expect(marked).toMatchObject({ status: 403, body: { field: 'role' } });
    expect((await call(base, 'POST', '/v1/agents/a1/resume', { headers: { cookie }, body: {} })).status).toBe(403);
  });

  it('accepts the operator key of the same tenant on the same routes', async () => {
    expect((await call(base, 'POST', `/v1/deviations/${deviationId}/false-positive`, { key: operator })).status).toBe(202);
    expect((await call(base, 'POST', `/v1/agents/a1/corrections/${correctionId}/ack`, { key: operator, body: { outcome: 'applied' } })).status).toBe(202);
    expect((await call(base, 'POST', '/v1/agents/a1/resume', { key: operator, body: {} })).status).toBe(202);
    expect((await call(base, 'PUT', '/v1/policy', { key: operator, body: { policy: { loop: { warning: 9 } } } })).status).toBe(200);
    expect(running.policyBook.policyOf('acme', 'report', 'a1').loop.warning).toBe(9);
  });
});
