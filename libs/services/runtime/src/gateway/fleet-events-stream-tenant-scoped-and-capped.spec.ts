// GET /v1/fleet/events: a tenant's fleet as SSE. A looping agent's deviation and correction arrive as
// `record` events (id = their ms) on its tenant's stream only; `fleet` samples count the agents by state;
// `?task=` keeps one task, `?since=` replays and `Last-Event-ID` resumes from its ms; bad filters
// are a 400 naming them; the stream takes a slot of the same caps as the correction streams (429 past them).
import type { RunningServices } from '../runtime';
import { call, eventually, loopSteps, readSse, REPORT_TASK, startWithGateway, type SseEvent } from './gateway.testing';

const ACME = 'acme-fleet-events-key';
const GLOBEX = 'globex-fleet-events-key';
const INITECH = 'initech-fleet-events-key';

const records = (events: SseEvent[]) => events.filter((e) => e.event === 'record').map((e) => ({ eventId: e.id as string, ...(JSON.parse(e.data) as { id: string; kind: string; tenantId: string; agentId: string; taskId: string; ts: string }) }));
const samples = (events: SseEvent[]) => events.filter((e) => e.event === 'fleet').map((e) => JSON.parse(e.data) as { agents: number; states: Record<string, number> });

describe('the fleet stream: one tenant’s records and samples, capped like the correction streams', () => {
  let running: RunningServices;
  let base: string;
  const open: Array<{ close(): void }> = [];
  const stream = (path: string, key: string, headers: Record<string, string> = {}) => {
    const s = readSse(`${base}${path}`, { authorization: `Bearer ${key}`, ...headers });
    open.push(s);
    return s;
  };

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${ACME},globex:${GLOBEX},initech:${INITECH}`, WAYFINDER_MAX_STREAMS_PER_TENANT: '4' });
    base = running.gateway!.url; // eslint-disable-line @typescript-eslint/no-non-null-assertion
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await running?.stop();
  });

  it('sends the looping agent’s deviation and correction to its tenant, samples by state, and filters by task', async () => {
    const acme = stream('/v1/fleet/events', ACME);
    const otherTask = stream('/v1/fleet/events?task=another-task', ACME);
    const globex = stream('/v1/fleet/events', GLOBEX);
    expect(await acme.status).toBe(200);
    expect(await globex.status).toBe(200);
    await eventually(async () => samples(acme.events).length > 0, 5_000, 'a first fleet sample');
    expect(samples(acme.events)[0].agents).toBe(0);

    await call(base, 'POST', '/v1/tasks', { key: ACME, body: REPORT_TASK });
    expect((await call(base, 'POST', '/v1/steps', { key: ACME, body: loopSteps('looper', 25) })).status).toBe(202);
    await eventually(async () => ['deviation', 'correction'].every((kind) => records(acme.events).some((r) => r.kind === kind)), 20_000, 'the deviation and the correction on the stream');
    const seen = records(acme.events);
    expect(seen.every((r) => r.tenantId === 'acme' && r.agentId === 'looper' && r.eventId === String(Date.parse(r.ts)))).toBe(true);
    // Each record sent once.
    expect(new Set(seen.map((r) => r.id)).size).toBe(seen.length);
    await eventually(async () => samples(acme.events).some((s) => s.agents === 1), 5_000, 'a sample counting the agent');

    // Another tenant's stream and another task's: samples only, none of acme's records.
    expect(records(globex.events)).toEqual([]);
    expect(samples(globex.events).every((s) => s.agents === 0)).toBe(true);
    expect(records(otherTask.events)).toEqual([]);
    expect(samples(otherTask.events).length).toBeGreaterThan(0);
    expect(samples(otherTask.events).every((s) => s.agents === 0)).toBe(true);
    for (const s of [otherTask, globex]) s.close();
  });

  it('replays from since and resumes after Last-Event-ID', async () => {
    const first = await running.history.tenantHistory('acme', { kinds: ['deviation', 'correction'] });
    expect(first.length).toBeGreaterThan(1);
    const replay = stream('/v1/fleet/events?since=0&task=report', ACME);
    await eventually(async () => records(replay.events).length >= first.length, 5_000, 'the replayed records');
    expect(records(replay.events).map((r) => r.id)).toEqual(expect.arrayContaining(first.map((r) => r.id)));
    replay.close();

    // From the Last-Event-ID's ms, inclusive: nothing older comes again.
    const newest = first[first.length - 1];
    const resumed = stream('/v1/fleet/events', ACME, { 'last-event-id': String(Date.parse(newest.ts)) });
    await eventually(async () => records(resumed.events).some((r) => r.id === newest.id), 5_000, 'the resumed stream');
    expect(records(resumed.events).every((r) => Date.parse(r.ts) >= Date.parse(newest.ts))).toBe(true);
    resumed.close();
  });

  it('names a bad filter, wants a key, refuses another tenant, and takes a slot of the stream caps', async () => {
    expect(await call(base, 'GET', '/v1/fleet/events?since=yesterday', { key: ACME })).toMatchObject({ status: 400, body: { field: 'since' } });
    expect(await call(base, 'GET', `/v1/fleet/events?since=${Date.now() + 3_600_000}`, { key: ACME })).toMatchObject({ status: 400, body: { field: 'since' } });
    expect(await call(base, 'GET', `/v1/fleet/events?task=${'x'.repeat(200)}`, { key: ACME })).toMatchObject({ status: 400, body: { field: 'task' } });
    expect((await call(base, 'GET', '/v1/fleet/events')).status).toBe(401);
    expect(await call(base, 'GET', '/v1/fleet/events?tenantId=globex', { key: ACME })).toMatchObject({ status: 403, body: { field: 'tenantId' } });

    // A cap of 4 per tenant, fleet and correction streams together: the fifth of either is refused.
    const held = [stream('/v1/fleet/events', INITECH), stream('/v1/fleet/events?task=report', INITECH), stream('/v1/agents/a1/corrections', INITECH), stream('/v1/agents/a2/corrections', INITECH)];
    for (const s of held) expect(await s.status).toBe(200);
    const refused = await call(base, 'GET', '/v1/fleet/events', { key: INITECH });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await call(base, 'GET', '/v1/agents/a3/corrections', { key: INITECH, headers: { accept: 'text/event-stream' } })).status).toBe(429);
    // Another tenant is served; a closed stream gives its slot back.
    expect(await stream('/v1/fleet/events', GLOBEX).status).toBe(200);
    held[0].close();
    await eventually(async () => (await stream('/v1/fleet/events', INITECH).status) === 200, 5_000, 'a freed slot');
  });
});

describe('the fleet stream when the gateway stops', () => {
  it('ends open streams, so stopping does not wait on a client that keeps its stream open', async () => {
    const running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${ACME}` });
    const open = readSse(`${running.gateway!.url}/v1/fleet/events`, { authorization: `Bearer ${ACME}` }); // eslint-disable-line @typescript-eslint/no-non-null-assertion
    try {
      expect(await open.status).toBe(200);
      const started = Date.now();
      await Promise.race([running.stop(), new Promise((_, reject) => setTimeout(() => reject(new Error('stop() waited on the open fleet stream')), 10_000))]);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      open.close();
    }
  }, 30_000);
});
