// Local mode: embedded, no keys configured and bound to loopback → no key needed, events without a
// tenantId go to tenant `local`, and the local operator may read any tenant with ?tenantId=. A key
// created meanwhile (the keys file) ends local mode at once; a non-loopback bind never has it.
import { generateApiKey } from '@wayfinder/tenancy';
import { FileKeyStore, keysFilePath } from '@wayfinder/file-stores';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningServices } from '../runtime';
import { call, eventually, loopSteps, REPORT_TASK, startWithGateway } from './gateway.testing';

describe('local mode', () => {
  let running: RunningServices;
  let base: string;

  const workingDir = mkdtempSync(join(tmpdir(), 'wf-local-'));

  beforeAll(async () => {
    running = await startWithGateway({}, {}, { workingDir });
    base = running.gateway!.url;
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('needs no key on loopback with no keys, files events under tenant local, and ends when a key is created', async () => {
    expect(running.gatewayLocalMode).toBe(true);
    expect((await call(base, 'POST', '/v1/tasks', { body: REPORT_TASK })).body.map.tenantId).toBe('local');
    expect((await call(base, 'POST', '/v1/steps', { body: loopSteps('me', 25) })).body.accepted).toBe(50);
    let corrections: unknown[] = [];
    for (let i = 0; i < 100 && corrections.length === 0; i++) {
      corrections = (await call(base, 'GET', '/v1/agents/me/corrections?wait=1')).body.corrections;
    }
    expect(corrections[0]).toMatchObject({ tenantId: 'local', agentId: 'me', action: 'hint' });
    expect((await call(base, 'GET', '/v1/agents/me/corrections?tenantId=other')).body.corrections).toEqual([]);
    // The local operator's tenants: every one with history (the dashboard's page of every tenant reads it).
    expect((await call(base, 'POST', '/v1/steps', { body: loopSteps('them', 1, { tenantId: 'initech' }) })).body.accepted).toBe(2);
    await eventually(async () => (await call(base, 'GET', '/v1/tenants')).body.tenants.includes('initech'), 20_000, "initech's first steps in the history");
    expect((await call(base, 'GET', '/v1/tenants')).body.tenants).toEqual(expect.arrayContaining(['local', 'initech']));
    expect((await call(base, 'GET', '/v1/tenants?tenantId=initech')).body.tenants).toEqual(['initech']);

    const created = generateApiKey('acme');
    await new FileKeyStore(keysFilePath(workingDir)).add(created.record);
    expect((await call(base, 'GET', '/v1/policy')).status).toBe(401);
    expect((await call(base, 'GET', '/v1/policy', { key: created.key })).body.tenantId).toBe('acme');
  });

  it('is off on a non-loopback bind', async () => {
    const open = await startWithGateway({ WAYFINDER_GATEWAY_HOST: '0.0.0.0' });
    try {
      expect(open.gatewayLocalMode).toBe(false);
      expect((await call(`http://127.0.0.1:${open.gateway!.port}`, 'GET', '/v1/policy')).status).toBe(401);
    } finally {
      await open.stop();
    }
  });
});
