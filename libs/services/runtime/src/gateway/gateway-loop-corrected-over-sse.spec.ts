// An agent posts a task and a 25-call identical loop over HTTP (embedded mode) and reads its corrections
// over SSE: a hint first, then a stronger correction; every event carries its cursor as id. The loop
// goes on until the agent is frozen; a human resumes it over HTTP, the correction engine unfreezes it,
// and its next loop gets a correction again.
import { until } from '@wayfinder/testing';
import type { RunningServices } from '../runtime';
import { call, loopSteps, readSse, REPORT_TASK, startWithGateway } from './gateway.testing';

const KEY = 'acme-secret-key';

describe('a looping agent corrected over SSE', () => {
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${KEY}` });
    base = running.gateway!.url;
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('gets a hint, then a stronger correction; after a freeze, resume makes the engine correct it again', async () => {
    const task = await call(base, 'POST', '/v1/tasks', { key: KEY, body: REPORT_TASK });
    expect(task.status).toBe(201);
    expect(task.body.map).toMatchObject({ schema: 'wayfinder.map.v1', tenantId: 'acme', taskId: 'report' });
    expect(task.body.map.milestones).toHaveLength(3);

    const sse = readSse(`${base}/v1/agents/looper/corrections`, { authorization: `Bearer ${KEY}` });
    expect(await sse.status).toBe(200);
    const posted = await call(base, 'POST', '/v1/steps', { key: KEY, body: loopSteps('looper', 25) });
    expect(posted).toMatchObject({ status: 202, body: { accepted: 50, rejected: [] } });

    await until(() => sse.events.length >= 2, 20_000);
    const corrections = sse.events.map((e) => JSON.parse(e.data));
    expect(sse.events.every((e) => e.event === 'correction' && /^\d+-\d+$/.test(e.id ?? ''))).toBe(true);
    expect(corrections[0]).toMatchObject({ tenantId: 'acme', agentId: 'looper', action: 'hint' });
    const rank = { mild: 0, moderate: 1, severe: 2, critical: 3 } as const;
    expect(rank[corrections[1].severity as keyof typeof rank]).toBeGreaterThan(rank.mild);
    expect(corrections[1].action).not.toBe('hint');

    let seq = 50;
    while (!sse.events.some((e) => JSON.parse(e.data).action === 'freeze') && seq < 50 + 2 * 200) {
      await call(base, 'POST', '/v1/steps', { key: KEY, body: loopSteps('looper', 10, { firstSeq: seq }) });
      seq += 20;
      await new Promise((r) => setTimeout(r, 100));
    }
    await until(() => sse.events.some((e) => JSON.parse(e.data).action === 'freeze'), 20_000);
    const frozenAt = sse.events.length;
    expect(running.correctionEngine().isFrozen('acme', 'looper', 'r1')).toBe(true);

    expect((await call(base, 'POST', '/v1/agents/looper/resume', { key: KEY, body: { reason: 'fixed the permissions' } })).status).toBe(202);
    await until(() => !running.correctionEngine().isFrozen('acme', 'looper', 'r1'), 10_000);
    await call(base, 'POST', '/v1/steps', { key: KEY, body: loopSteps('looper', 25, { firstSeq: seq + 2 }) });
    await until(() => sse.events.length > frozenAt, 20_000);
    expect(JSON.parse(sse.events[frozenAt].data)).toMatchObject({ agentId: 'looper' });
    sse.close();
  });
});
