/**
 * Batches of one long run arrive out of order, and one span after the flush. With an explicit agent id
 * the steps go out behind the watermark (newest span end − 10 s); steps whose spans arrive behind it are
 * appended with `wayfinder.late`, never reordered, and seq keeps counting.
 */
import { OtlpNormalizer } from './normalizer';
import { BASE_MS, exportRequest, FakeClock, spansOf, valid, type SpanSpec } from './testing/otlp-fixture';

const resource = { 'service.name': 'crawler', 'wayfinder.agent.id': 'crawler-7', 'wayfinder.task.id': 'crawl-site' };
/** Tool call i: starts at 5 s · i, lasts 1 s. */
const tool = (i: number): SpanSpec => ({
  id: `T${i}`, parent: 'A', name: 'execute_tool fetch', start: i * 5000, end: i * 5000 + 1000,
  attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'fetch', 'gen_ai.tool.call.id': `c${i}`, 'gen_ai.tool.call.arguments': JSON.stringify({ url: `https://site/p${i}` }), 'gen_ai.tool.call.result': `page ${i}` },
});
const batch = (from: number, to: number) => exportRequest(resource, Array.from({ length: to - from }, (_, k) => tool(from + k)));
const root: SpanSpec = { id: 'A', name: 'invoke_agent crawler', start: 0, end: 61_000, attrs: { 'gen_ai.operation.name': 'invoke_agent' } };

describe('out-of-order arrival of a long run', () => {
  const clock = new FakeClock();
  const normalizer = new OtlpNormalizer(clock);
  const second = normalizer.ingest('acme', spansOf(batch(4, 8))).map(valid); // spans 20 s … 36 s
  const first = normalizer.ingest('acme', spansOf(batch(0, 4))).map(valid); // spans 0 s … 16 s: behind the watermark
  const third = normalizer.ingest('acme', spansOf(exportRequest(resource, [...Array.from({ length: 4 }, (_, k) => tool(8 + k)), root]))).map(valid);
  clock.advance(1000);
  const flushed = normalizer.tick().map(valid);
  const afterFlush = normalizer.ingest('acme', spansOf(batch(12, 13))).map(valid);
  const all = [...second, ...first, ...third, ...flushed, ...afterFlush];

  it('releases only what is behind the watermark while the run goes on', () => {
    // Newest end 36 s → watermark 26 s: the calls at 20 s and 25 s (and the first one's result).
    expect(second.map((s) => `${s.kind}@${(Date.parse(s.ts) - BASE_MS) / 1000}`)).toEqual(['action@20', 'observation@21', 'action@25', 'observation@26']);
  });

  it('appends the steps of a batch that arrives behind the watermark, marked late', () => {
    expect(first).toHaveLength(8);
    for (const s of first) expect(s.attributes?.['wayfinder.late']).toBe(true);
    expect(first.map((s) => s.seq)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('flushes the rest when the root span has ended, in event order, and marks a span after the flush late', () => {
    const onTime = [...third, ...flushed];
    expect(onTime.every((s) => s.attributes?.['wayfinder.late'] === undefined)).toBe(true);
    const times = onTime.map((s) => Date.parse(s.ts));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(afterFlush).toHaveLength(2);
    for (const s of afterFlush) expect(s.attributes?.['wayfinder.late']).toBe(true);
  });

  it('gives every step once, seq counting up in the order of release', () => {
    expect(new Set(all.map((s) => s.eventId)).size).toBe(all.length);
    expect(all).toHaveLength(26);
    expect(all.map((s) => s.seq)).toEqual(all.map((_, i) => i));
    expect(new Set(all.map((s) => `${s.agentId}/${s.taskId}`))).toEqual(new Set(['crawler-7/crawl-site']));
  });
});
