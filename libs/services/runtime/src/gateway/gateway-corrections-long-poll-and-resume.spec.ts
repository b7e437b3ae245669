// Reading corrections as JSON: a long-poll waits for the first one, the cursor it answers resumes after
// it, and an SSE reconnect with Last-Event-ID gets exactly what it missed. Bad cursors and waits are 400s
// naming the field; acking an unknown correction is a 404.
import type { RunningServices } from '../runtime';
import { call, loopSteps, readSse, REPORT_TASK, startWithGateway } from './gateway.testing';
import { until } from '@wayfinder/testing';

const KEY = 'acme-secret-key';

describe('corrections by cursor', () => {
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${KEY}` });
    base = running.gateway!.url;
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('long-polls, resumes after a cursor and after Last-Event-ID', async () => {
    expect(await call(base, 'GET', '/v1/agents/a1/corrections?wait=31', { key: KEY })).toMatchObject({ status: 400, body: { field: 'wait' } });
    expect(await call(base, 'GET', '/v1/agents/a1/corrections?after=yesterday', { key: KEY })).toMatchObject({ status: 400, body: { field: 'after' } });
    expect(await call(base, 'GET', '/v1/agents/a1/corrections', { key: KEY, headers: { 'last-event-id': 'x' } })).toMatchObject({ status: 400, body: { field: 'Last-Event-ID' } });

    await call(base, 'POST', '/v1/tasks', { key: KEY, body: REPORT_TASK });
    const started = Date.now();
    const polled = call(base, 'GET', '/v1/agents/a1/corrections?wait=20', { key: KEY });
    await new Promise((r) => setTimeout(r, 200));
    await call(base, 'POST', '/v1/steps', { key: KEY, body: loopSteps('a1', 25) });
    const first = await polled;
    expect(first.status).toBe(200);
    expect(first.body.corrections.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(20_000);
    const cursor = first.body.cursor as string;

    // Everything after the cursor, then nothing more: the cursor moved past what was read.
    const seen = new Set(first.body.corrections.map((c: { eventId: string }) => c.eventId));
    await call(base, 'POST', '/v1/steps', { key: KEY, body: loopSteps('a1', 40, { firstSeq: 50 }) });
    let rest: Array<{ eventId: string }> = [];
    for (let i = 0; i < 40 && rest.length === 0; i++) rest = (await call(base, 'GET', `/v1/agents/a1/corrections?after=${cursor}&wait=1`, { key: KEY })).body.corrections;
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.some((c) => seen.has(c.eventId))).toBe(false);

    // An SSE client that saw the first event reconnects with its id as Last-Event-ID and gets the rest.
    const all = (await call(base, 'GET', '/v1/agents/a1/corrections', { key: KEY })).body;
    const firstId = (await call(base, 'GET', '/v1/agents/a1/corrections', { key: KEY })).body.corrections.length;
    expect(firstId).toBe(all.corrections.length);
    const sse = readSse(`${base}/v1/agents/a1/corrections`, { authorization: `Bearer ${KEY}`, 'last-event-id': cursor });
    await until(() => sse.events.length >= all.corrections.length - first.body.corrections.length, 10_000);
    sse.close();
    expect(sse.events.map((e) => JSON.parse(e.data).eventId)).toEqual(all.corrections.slice(first.body.corrections.length).map((c: { eventId: string }) => c.eventId));

    expect((await call(base, 'POST', '/v1/agents/a1/corrections/not-a-correction/ack', { key: KEY, body: {} })).status).toBe(404);
    expect(await call(base, 'POST', `/v1/agents/a1/corrections/${all.corrections[0].eventId}/ack`, { key: KEY, body: { outcome: 'maybe' } })).toMatchObject({ status: 400, body: { field: 'outcome' } });
  });
});
