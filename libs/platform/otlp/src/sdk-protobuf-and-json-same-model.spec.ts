/**
 * The OpenTelemetry JS SDK's own serializers encode the same spans as OTLP protobuf and OTLP JSON; the
 * protobuf decoder gives the model the JSON path gives (the same SpanRecords, the same ids and times),
 * attribute types of every AnyValue variant the SDK writes included.
 */
import { context, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { readTraceRequest } from '@wayfinder/ingest';
import { otlpJsonBatches, otlpProtobufBatches, recordAgentRun } from './testing/otel-agent-run';
import { decodeTraceRequestProtobuf, encodeTraceRequestProtobuf } from './otlp-protobuf';

async function mixedSpans() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'types-agent', 'deployment.count': 3, 'wayfinder.agent.id': 'typed-1' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('types', '0.1.0');
  const root = tracer.startSpan('invoke_agent typed', { startTime: [1796115600, 123456789], attributes: { 'gen_ai.operation.name': 'invoke_agent' } });
  const child = tracer.startSpan('execute_tool mix', {
    startTime: [1796115600, 223456789],
    attributes: { 'gen_ai.tool.name': 'mix', int: 42, big: 2 ** 40, neg: -7, dbl: 0.25, yes: true, words: ['a', 'b'], nums: [1, 2, 3], empty: '' },
  }, trace.setSpan(context.active(), root));
  child.addEvent('exception', { 'exception.message': 'boom', 'exception.type': 'Error' }, [1796115600, 300000001]);
  child.setStatus({ code: 2, message: 'boom' });
  child.addLink({ context: root.spanContext(), attributes: { why: 'follows' } });
  child.end([1796115600, 400000000]);
  root.end([1796115601, 0]);
  await provider.forceFlush();
  return exporter.getFinishedSpans();
}

describe('OTLP protobuf and JSON encodings of the same SDK spans', () => {
  it('decode to the same span records', async () => {
    for (const spans of [await mixedSpans(), await recordAgentRun({ agentName: 'a', calls: [{ tool: 'ls', args: { dir: '/' }, result: 'bin etc' }, { tool: 'cat', args: { f: 'x' }, result: '', error: 'ENOENT' }] })]) {
      const [json] = otlpJsonBatches(spans);
      const [proto] = otlpProtobufBatches(spans);
      const fromJson = readTraceRequest(JSON.parse(json));
      const fromProto = readTraceRequest(decodeTraceRequestProtobuf(proto));
      if (!fromJson.ok || !fromProto.ok) throw new Error('not read');
      expect(fromJson.rejected).toEqual([]);
      expect(fromProto.rejected).toEqual([]);
      expect(fromProto.spans).toEqual(fromJson.spans);
      expect(fromProto.spans).toHaveLength(spans.length);
      // And our own encoder (used by the benchmark) round-trips the JSON model.
      const roundTrip = readTraceRequest(decodeTraceRequestProtobuf(encodeTraceRequestProtobuf(JSON.parse(json))));
      expect(roundTrip.ok && roundTrip.spans).toEqual(fromJson.spans);
    }
  });

  it('gives hex ids, decimal-string nanoseconds and every attribute type', async () => {
    const spans = await mixedSpans();
    const model = decodeTraceRequestProtobuf(otlpProtobufBatches(spans)[0]);
    const json = JSON.parse(otlpJsonBatches(spans)[0]);
    const protoSpan = model.resourceSpans![0].scopeSpans![0].spans![0];
    const jsonSpan = json.resourceSpans[0].scopeSpans[0].spans[0];
    expect(protoSpan.traceId).toBe(jsonSpan.traceId);
    expect(protoSpan.spanId).toBe(jsonSpan.spanId);
    expect(protoSpan.parentSpanId).toBe(jsonSpan.parentSpanId);
    expect(protoSpan.startTimeUnixNano).toBe('1796115600223456789');
    expect(protoSpan.status).toEqual({ code: 2, message: 'boom' });
    expect(protoSpan.links?.[0].spanId).toBe(jsonSpan.parentSpanId);
    const read = readTraceRequest(model);
    if (!read.ok) throw new Error(read.error);
    const tool = read.spans.find((s) => s.name === 'execute_tool mix')!;
    expect(tool.attributes).toEqual({ 'gen_ai.tool.name': 'mix', int: 42, big: 2 ** 40, neg: -7, dbl: 0.25, yes: true, words: ['a', 'b'], nums: [1, 2, 3], empty: '' });
    expect(tool.resource).toEqual(expect.objectContaining({ 'service.name': 'types-agent', 'deployment.count': 3, 'wayfinder.agent.id': 'typed-1' }));
    expect(tool.events).toEqual([{ name: 'exception', timeUs: 1796115600300000, attributes: { 'exception.message': 'boom', 'exception.type': 'Error' } }]);
    expect(tool.statusCode).toBe(2);
  });
});
