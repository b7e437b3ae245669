/**
 * A trace whose root (the agent span) is never exported, plus an orphan whose parent never arrives.
 * Without an agent span or an explicit id the run's identity could still change, so its steps wait for
 * the flush, which comes after 30 s without new spans.
 */
import { OtlpNormalizer } from './normalizer';
import { exportRequest, FakeClock, spanHex, spansOf, summary, valid } from './testing/otlp-fixture';

const resource = { 'service.name': 'billing-worker' };
const spans = [
  { id: 'L1', parent: 'A', name: 'chat m', start: 0, end: 100, attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'refund', arguments: '{"invoice":"inv-1"}' }] }]) } },
  { id: 'T1', parent: 'A', name: 'execute_tool refund', start: 150, end: 300, attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'refund', 'gen_ai.tool.call.id': 'c1', 'gen_ai.tool.call.result': 'refunded' } },
  // Its parent Z is in no batch: the orphan is a run of its own, under its missing parent's id.
  { id: 'T9', parent: 'Z', name: 'execute_tool audit', start: 200, end: 250, attrs: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'audit', 'gen_ai.tool.call.arguments': '{"invoice":"inv-1"}', 'gen_ai.tool.call.result': 'ok' } },
];

describe('orphan parents and a root that never arrives', () => {
  const clock = new FakeClock();
  const normalizer = new OtlpNormalizer(clock);
  const early = normalizer.ingest('acme', spansOf(exportRequest(resource, spans)));
  clock.advance(29_999);
  const beforeIdle = normalizer.tick();
  clock.advance(1);
  const atIdle = normalizer.tick().map(valid);

  it('holds the steps until the trace has been idle for 30 s', () => {
    expect(early).toEqual([]);
    expect(beforeIdle).toEqual([]);
    expect(normalizer.openTraces).toBe(0);
  });

  it('then releases them in event order, the run being the missing parent, the agent the service name', () => {
    expect(summary(atIdle)).toEqual([
      'action refund {"invoice":"inv-1"} #c1',
      'action audit {"invoice":"inv-1"}',
      'observation audit ok "ok"',
      'observation refund ok "refunded" #c1',
    ]);
    expect(atIdle.map((s) => s.runId)).toEqual([spanHex('A'), spanHex('Z'), spanHex('Z'), spanHex('A')]);
    expect(new Set(atIdle.map((s) => s.agentId))).toEqual(new Set(['billing-worker']));
    // seq is per agent and run.
    expect(atIdle.map((s) => s.seq)).toEqual([0, 0, 1, 1]);
  });
});
