// A restarted agent asks for its corrections from `now`: the JSON answer is empty with the log's current
// position as its cursor, and a stream from `now` announces that position (a bare id) and then carries
// only what comes after it, never the earlier run's corrections. Except a standing freeze: until a human
// resumes the agent, `now` is just before it, so a frozen agent restarted learns first that it is frozen.
import { until } from '@wayfinder/testing';
import type { RunningServices } from '../runtime';
import { call, eventually, loopSteps, readSse, REPORT_TASK, startWithGateway } from './gateway.testing';

const KEY = 'acme-secret-key';

describe('corrections from now', () => {
  let running: RunningServices;
  let base: string;

  beforeAll(async () => {
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${KEY}` });
    base = running.gateway!.url;
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('answers an empty log with 0-0, then skips the corrections an earlier run was sent', async () => {
    expect((await call(base, 'GET', '/v1/agents/restarted/corrections?after=now', { key: KEY })).body).toEqual({ corrections: [], cursor: '0-0' });

    await call(base, 'POST', '/v1/tasks', { key: KEY, body: REPORT_TASK });
    await call(base, 'POST', '/v1/steps', { key: KEY, body: loopSteps('restarted', 25) });
    let earlier: Array<{ eventId: string; action: string }> = [];
    await eventually(async () => (earlier = (await call(base, 'GET', '/v1/agents/restarted/corrections', { key: KEY })).body.corrections).at(-1)?.action === 'freeze', 20_000, 'the first run\'s freeze');
    const newest = (await call(base, 'GET', '/v1/agents/restarted/corrections', { key: KEY })).body.cursor as string;

    // The restart while frozen: from now, the standing freeze alone, and the position after it.
    const frozen = await call(base, 'GET', '/v1/agents/restarted/corrections?after=now', { key: KEY });
    expect(frozen.body).toEqual({ corrections: [earlier.at(-1)], cursor: newest });
    expect(earlier.length).toBeGreaterThan(1);

    // Resumed by a human: from now, nothing of the earlier run, and the position to resume from.
    expect((await call(base, 'POST', '/v1/agents/restarted/resume', { key: KEY, body: {} })).status).toBe(202);
    const fromNow = await call(base, 'GET', '/v1/agents/restarted/corrections?after=now', { key: KEY });
    expect(fromNow.status).toBe(200);
    expect(fromNow.body).toEqual({ corrections: [], cursor: newest });

    const sse = readSse(`${base}/v1/agents/restarted/corrections`, { authorization: `Bearer ${KEY}`, 'last-event-id': 'now' });
    expect(await sse.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sse.events).toEqual([]);
    // The next run loops again: its corrections, and only those, come through the stream.
    await call(base, 'POST', '/v1/steps', { key: KEY, body: loopSteps('restarted', 40, { firstSeq: 50 }).map((s) => ({ ...s, runId: 'r2' })) });
    await until(() => sse.events.length > 0, 20_000);
    sse.close();
    const streamed = sse.events.map((e) => JSON.parse(e.data) as { eventId: string; runId: string | null });
    expect(streamed.some((c) => earlier.some((e) => e.eventId === c.eventId))).toBe(false);
    expect(streamed.every((c) => c.runId === 'r2')).toBe(true);
  }, 60_000);

  it('opens a stream from now with the position as a bare id', async () => {
    const response = await fetch(`${base}/v1/agents/quiet/corrections`, { headers: { authorization: `Bearer ${KEY}`, accept: 'text/event-stream', 'last-event-id': 'now' } });
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    await reader.cancel();
    expect(new TextDecoder().decode(value)).toContain('id: 0-0\n\n');
  });
});
