/**
 * Acceptance (issue #11), distributed mode on the real Kafka broker and Redis: two tenants with keys
 * made by `wayfinder keys create` (the CLI, in Redis under this run's prefix). Tenant A's agent posts a
 * 25-call identical loop over HTTP and receives a hint, then a stronger correction, over SSE; tenant B's
 * key sees none of A's corrections, policy or agents on any route (403/404); no key → 401; a revoked key
 * → 401. A batch of 1,000 events with 10 invalid: 990 accepted, 10 named, and all 990 reach the detectors.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import type { LocalizedStep } from '@wayfinder/contracts';
import { deleteTestTopics, requireKafka, uniqueTestName, until } from '@wayfinder/testing';
import { startServices, type RunningServices } from '../runtime';
import { batchWithInvalid, call, eventually, loopSteps, readSse, REPORT_TASK } from './gateway.testing';

const root = join(__dirname, '..', '..', '..', '..', '..');

/** Runs `wayfinder keys …` as a user does (asynchronously: the gateway under test shares this process). */
function keys(prefix: string, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin/wayfinder.js'), 'keys', ...args, '--mode', 'distributed'], { cwd: root, encoding: 'utf8', env: { ...process.env, WAYFINDER_TOPIC_PREFIX: prefix } }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('the gateway in distributed mode, two tenants', () => {
  const prefix = `${uniqueTestName('gateway')}.`;
  let brokers: string[];
  let running: RunningServices;
  let observer: KafkaBus;
  let base: string;
  let keyA: string;
  let keyB: string;
  const localized = new Set<string>();

  beforeAll(async () => {
    brokers = await requireKafka();
    await createTopics(brokers, { topicPrefix: prefix, partitionsOverride: 2 });
    const [a, b] = await Promise.all([keys(prefix, 'create', '--tenant', 'acme'), keys(prefix, 'create', '--tenant', 'globex')]);
    expect([a.status, b.status, a.stderr]).toEqual([0, 0, expect.stringContaining('created key_')]);
    keyA = a.stdout.trim();
    keyB = b.stdout.trim();
    observer = new KafkaBus({ brokers, topicPrefix: prefix, clientId: 'observer' });
    observer.subscribe('wayfinder.localized.v1', async (batch) => void batch.forEach((d) => (d.payload as LocalizedStep).step.agentId.startsWith('bulk-') && localized.add((d.payload as LocalizedStep).step.eventId)), { groupId: `${prefix}observer` });
    await observer.start();
    const config = loadConfig({ WAYFINDER_MODE: 'distributed', WAYFINDER_KAFKA_BROKERS: brokers.join(','), WAYFINDER_TOPIC_PREFIX: prefix, WAYFINDER_GROUP_PREFIX: `${prefix}wf` });
    running = await startServices(config, { logger: false });
    base = running.gateway!.url;
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
    await observer?.stop();
    await deleteTestTopics(brokers, prefix);
  });

  it("corrects A's looping agent over SSE: a hint, then a stronger correction", async () => {
    expect(running.gatewayLocalMode).toBe(false);
    expect((await call(base, 'POST', '/v1/tasks', { key: keyA, body: REPORT_TASK })).status).toBe(201);
    const sse = readSse(`${base}/v1/agents/looper/corrections`, { authorization: `Bearer ${keyA}` });
    expect(await sse.status).toBe(200);
    expect(await call(base, 'POST', '/v1/steps', { key: keyA, body: loopSteps('looper', 25) })).toMatchObject({ status: 202, body: { accepted: 50 } });
    await until(() => sse.events.length >= 2, 60_000, 'two corrections over SSE');
    sse.close();
    const [first, second] = sse.events.map((e) => JSON.parse(e.data));
    expect(first).toMatchObject({ tenantId: 'acme', agentId: 'looper', action: 'hint', severity: 'mild' });
    expect(second.action).not.toBe('hint');
    expect(second.severity).not.toBe('mild');
  }, 90_000);

  it("shows B none of A's corrections, policy or agents, on every route", async () => {
    const correctionId = (await call(base, 'GET', '/v1/agents/looper/corrections', { key: keyA })).body.corrections[0].eventId as string;
    expect(await call(base, 'PUT', '/v1/policy', { key: keyA, body: { policy: { loop: { warning: 4 } } } })).toMatchObject({ status: 200 });
    expect(await call(base, 'GET', '/v1/agents/looper/corrections', { key: keyB })).toMatchObject({ status: 200, body: { corrections: [] } });
    expect((await call(base, 'POST', `/v1/agents/looper/corrections/${correctionId}/ack`, { key: keyB, body: {} })).status).toBe(404);
    expect((await call(base, 'POST', '/v1/agents/looper/resume', { key: keyB, body: {} })).status).toBe(404);
    const policyB = await call(base, 'GET', '/v1/policy', { key: keyB });
    expect([policyB.status, policyB.body.tenantId, policyB.body.policy.loop.warning === 4]).toEqual([200, 'globex', false]);
    expect((await call(base, 'GET', '/v1/policy', { key: keyA })).body.policy.loop.warning).toBe(4);
    expect((await call(base, 'POST', '/v1/steps', { key: keyB, body: loopSteps('looper', 1, { tenantId: 'acme' }) })).status).toBe(403);
    expect((await call(base, 'POST', '/v1/tasks', { key: keyB, body: { ...REPORT_TASK, tenantId: 'acme' } })).status).toBe(403);
    expect((await call(base, 'PUT', '/v1/policy', { key: keyB, body: { tenantId: 'acme', policy: {} } })).status).toBe(403);
    const routes: Array<[string, string, unknown]> = [
      ['POST', '/v1/steps', loopSteps('x', 1)],
      ['POST', '/v1/tasks', REPORT_TASK],
      ['GET', '/v1/agents/looper/corrections', undefined],
      ['POST', `/v1/agents/looper/corrections/${correctionId}/ack`, {}],
      ['POST', '/v1/agents/looper/resume', {}],
      ['GET', '/v1/policy', undefined],
      ['PUT', '/v1/policy', { policy: {} }],
    ];
    for (const [method, path, body] of routes) {
      expect([method, path, (await call(base, method, `${path}?tenantId=acme`, { key: keyB, body })).status]).toEqual([method, path, 403]);
      expect([method, path, (await call(base, method, path, { body })).status]).toEqual([method, path, 401]);
    }
    expect((await call(base, 'POST', `/v1/agents/looper/corrections/${correctionId}/ack`, { key: keyA, body: {} })).status).toBe(202);
  }, 60_000);

  it('refuses a revoked key (revoked with wayfinder keys revoke)', async () => {
    const created = await keys(prefix, 'create', '--tenant', 'acme');
    const key = created.stdout.trim();
    const keyId = /created (key_[0-9a-f]+)/.exec(created.stderr)?.[1] as string;
    expect((await call(base, 'GET', '/v1/policy', { key })).status).toBe(200);
    expect((await keys(prefix, 'revoke', '--tenant', 'acme', keyId)).status).toBe(0);
    expect((await call(base, 'GET', '/v1/policy', { key })).status).toBe(401);
    expect((await call(base, 'GET', '/v1/policy', { key: keyA })).status).toBe(200);
  }, 60_000);

  it('accepts 990 of a 1,000-event batch, names the 10 invalid ones, and the 990 reach the detectors', async () => {
    const { events, invalid } = batchWithInvalid('bulk');
    const answer = await call(base, 'POST', '/v1/steps', { key: keyA, body: events });
    expect(answer.status).toBe(202);
    expect(answer.body.accepted).toBe(990);
    expect(answer.body.rejected.map((r: { index: number; field: string }) => [r.index, r.field])).toEqual([...invalid.entries()]);
    await eventually(async () => localized.size >= 990, 60_000, '990 localized steps');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(localized.size).toBe(990);
  }, 90_000);
});
