/** An exporter retries: the same batch arrives twice, once more after the flush. Each step appears once. */
import { OtlpNormalizer } from './normalizer';
import { exportRequest, FakeClock, spansOf, summary } from './testing/otlp-fixture';

const resource = { 'service.name': 'svc', 'wayfinder.agent.id': 'dup-agent' };
const batch = exportRequest(resource, [
  { id: 'T1', parent: 'A', name: 'execute_tool ls', start: 0, end: 10, attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'ls', 'gen_ai.tool.call.arguments': '{"dir":"/tmp"}', 'gen_ai.tool.call.result': 'a b' } },
  { id: 'T2', parent: 'A', name: 'execute_tool cat', start: 20, end: 30, attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'cat', 'gen_ai.tool.call.arguments': '{"file":"a"}', 'gen_ai.tool.call.result': 'hello' } },
]);
const root = exportRequest(resource, [{ id: 'A', name: 'invoke_agent x', start: 0, end: 40, attrs: { 'gen_ai.operation.name': 'invoke_agent' } }]);

describe('duplicate delivery of a batch', () => {
  it('drops re-sent spans before and after the flush', () => {
    const clock = new FakeClock();
    const normalizer = new OtlpNormalizer(clock);
    const out = [...normalizer.ingest('acme', spansOf(batch)), ...normalizer.ingest('acme', spansOf(batch)), ...normalizer.ingest('acme', spansOf(root)), ...normalizer.ingest('acme', spansOf(root))];
    clock.advance(2000);
    out.push(...normalizer.tick());
    out.push(...normalizer.ingest('acme', spansOf(batch)));
    out.push(...normalizer.flushAll());
    expect(summary(out)).toEqual(['action ls {"dir":"/tmp"}', 'observation ls ok "a b"', 'action cat {"file":"a"}', 'observation cat ok "hello"']);
    expect(normalizer.stats.duplicates).toBe(5);
  });

  it('keeps tenants apart: the same trace sent by two tenants gives each its steps', () => {
    const normalizer = new OtlpNormalizer(new FakeClock());
    const a = normalizer.ingest('tenant-a', spansOf(batch));
    const b = normalizer.ingest('tenant-b', spansOf(batch));
    const rest = normalizer.flushAll();
    const all = [...a, ...b, ...rest];
    expect(all.filter((s) => s.tenantId === 'tenant-a')).toHaveLength(4);
    expect(all.filter((s) => s.tenantId === 'tenant-b')).toHaveLength(4);
    expect(normalizer.stats.duplicates).toBe(0);
  });
});
