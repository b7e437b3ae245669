/** Past its bounds the normalizer flushes early and forgets the oldest flushed traces, losing no step. */
import { OtlpNormalizer } from './normalizer';
import { exportRequest, FakeClock, spansOf } from './testing/otlp-fixture';

const resource = { 'service.name': 'svc' };
const traceOf = (name: string, tools: number) =>
  spansOf(exportRequest(resource, Array.from({ length: tools }, (_, i) => ({
    trace: name, id: `${name}-T${i}`, parent: `${name}-A`, name: 'execute_tool t', start: i * 10, end: i * 10 + 5,
    attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 't', 'gen_ai.tool.call.arguments': JSON.stringify({ i }), 'gen_ai.tool.call.result': 'r' },
  }))));

describe('normalizer memory bounds', () => {
  it('flushes the least recently active trace when too many are open, keeping every step', () => {
    const normalizer = new OtlpNormalizer(new FakeClock(), { maxOpenTraces: 2 });
    const out = [...normalizer.ingest('t', traceOf('a', 2)), ...normalizer.ingest('t', traceOf('b', 2))];
    expect(out).toHaveLength(0);
    out.push(...normalizer.ingest('t', traceOf('c', 2)));
    // a was flushed early to make room for c.
    expect(out.map((s) => s.attributes?.['otel.trace_id'])).toEqual(Array(4).fill(traceOf('a', 1)[0].traceId));
    expect(normalizer.openTraces).toBe(2);
    out.push(...normalizer.flushAll());
    expect(out).toHaveLength(12);
    expect(normalizer.stats.forcedFlushes).toBe(1);
  });

  it('forgets the oldest flushed traces past maxSpans, then flushes open ones, and never holds more', () => {
    const normalizer = new OtlpNormalizer(new FakeClock(), { maxSpans: 10 });
    let steps = 0;
    for (let k = 0; k < 20; k++) {
      steps += normalizer.ingest('t', traceOf(`tr${k}`, 4)).length;
      expect(normalizer.retainedSpans).toBeLessThanOrEqual(10);
    }
    steps += normalizer.flushAll().length;
    expect(steps).toBe(20 * 8);
    expect(normalizer.stats.forgottenTraces).toBeGreaterThan(0);
  });

  it('flushes a trace that passes maxSpansPerTrace; its further spans are late', () => {
    const normalizer = new OtlpNormalizer(new FakeClock(), { maxSpansPerTrace: 3 });
    const spans = traceOf('big', 5);
    const first = normalizer.ingest('t', spans.slice(0, 3));
    expect(first).toHaveLength(6);
    const rest = normalizer.ingest('t', spans.slice(3));
    expect(rest).toHaveLength(4);
    for (const s of rest) expect(s.attributes?.['wayfinder.late']).toBe(true);
  });
});
