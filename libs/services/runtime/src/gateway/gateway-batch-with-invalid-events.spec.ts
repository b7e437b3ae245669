// A batch of 1,000 step events with 10 invalid ones (embedded): 990 accepted, the 10 rejected by index and
// field, and the 990 reach the detectors (counted on the localized-steps topic the detector worker reads).
// The same as NDJSON, with a line that is not JSON; a body that is not JSON at all is a 400.
import { InProcessBus } from '@wayfinder/bus';
import type { LocalizedStep } from '@wayfinder/contracts';
import { until } from '@wayfinder/testing';
import type { RunningServices } from '../runtime';
import { batchWithInvalid, call, startWithGateway } from './gateway.testing';

const KEY = 'acme-secret-key';

describe('a batch with invalid events', () => {
  let running: RunningServices;
  let base: string;
  const localized = new Set<string>();

  beforeAll(async () => {
    const bus = new InProcessBus({ queueCapacity: 4096 });
    bus.subscribe('wayfinder.localized.v1', async (b) => void b.forEach((d) => localized.add((d.payload as LocalizedStep).step.eventId)), { groupId: 'count' });
    running = await startWithGateway({ WAYFINDER_API_KEYS: `acme:${KEY}` }, { bus });
    base = running.gateway!.url;
  });
  afterAll(async () => {
    await running?.stop();
  });

  it('accepts the 990 valid events, names the 10 invalid ones, and all 990 reach the detectors', async () => {
    const { events, invalid } = batchWithInvalid('json');
    const answer = await call(base, 'POST', '/v1/steps', { key: KEY, body: events });
    expect(answer.status).toBe(202);
    expect(answer.body.accepted).toBe(990);
    expect(answer.body.rejected.map((r: { index: number }) => r.index)).toEqual([...invalid.keys()]);
    for (const r of answer.body.rejected as Array<{ index: number; field: string; error: string }>) {
      expect(r.field).toBe(invalid.get(r.index));
      expect(r.error).toContain(r.field);
    }
    await until(() => localized.size >= 990, 30_000, '990 localized steps');
    await new Promise((r) => setTimeout(r, 300));
    expect(localized.size).toBe(990);
  });

  it('takes NDJSON the same way, a line that is not JSON being that item’s error', async () => {
    const lines = [JSON.stringify({ agentId: 'nd', taskId: 'report', seq: 0, kind: 'message', message: { role: 'user', text: 'hi' } }), '{not json', JSON.stringify({ agentId: 'nd', taskId: 'report', seq: 1, kind: 'feedback', feedback: { text: 'ok' } })];
    const answer = await call(base, 'POST', '/v1/steps', { key: KEY, raw: lines.join('\n') + '\n', contentType: 'application/x-ndjson' });
    expect(answer.status).toBe(202);
    expect(answer.body.accepted).toBe(2);
    expect(answer.body.rejected).toEqual([{ index: 1, error: expect.stringContaining('not JSON') }]);
    await until(() => localized.size >= 992, 10_000, 'the two NDJSON steps localized');
  });

  it('answers 400 to a body that is not JSON at all, and publishes nothing', async () => {
    const before = localized.size;
    const answer = await call(base, 'POST', '/v1/steps', { key: KEY, raw: '[{"agentId":', contentType: 'application/json' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/not JSON/);
    await new Promise((r) => setTimeout(r, 200));
    expect(localized.size).toBe(before);
  });
});
