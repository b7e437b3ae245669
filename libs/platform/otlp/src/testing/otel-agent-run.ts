/**
 * Test support (entry `@wayfinder/otlp/testing`, not in the lib's index): scripted agent runs recorded with the official OpenTelemetry JS SDK (`@opentelemetry/sdk-trace-base`,
 * spans collected by its InMemorySpanExporter) following the GenAI conventions, and their OTLP encodings
 * by the SDK's own serializers (`@opentelemetry/otlp-transformer`, as the OTLP exporters send them).
 * For the ingest tests: what reaches Wayfinder is exactly what a real exporter would send.
 */
import { context, trace, type Span } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';

export interface ScriptedToolCall {
  tool: string;
  args: Record<string, unknown>;
  result: string;
  error?: string;
}

export interface ScriptedRunOptions {
  agentName: string;
  conversationId?: string;
  resource?: Record<string, string | number | boolean>;
  calls: ScriptedToolCall[];
  /** ms of simulated time per span (start times are set explicitly, so runs are deterministic in shape). */
  stepMs?: number;
  startMs?: number;
}

/** Records one invoke_agent run: per call, a chat span requesting it and an execute_tool span running it. */
export async function recordAgentRun(options: ScriptedRunOptions): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'scripted-agent', ...options.resource }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('wayfinder-scripted-agent', '1.0.0');
  const step = options.stepMs ?? 10;
  let t = options.startMs ?? Date.parse('2026-12-01T09:00:00.000Z');
  const agent = tracer.startSpan(`invoke_agent ${options.agentName}`, {
    startTime: t,
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': options.agentName, ...(options.conversationId ? { 'gen_ai.conversation.id': options.conversationId } : {}) },
  });
  const inAgent = trace.setSpan(context.active(), agent);
  const child = (name: string, attributes: Record<string, string | number | boolean>): Span => {
    const span = tracer.startSpan(name, { startTime: t, attributes }, inAgent);
    t += step;
    return span;
  };
  options.calls.forEach((call, i) => {
    const id = `call_${i}`;
    const chat = child('chat scripted-model', {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'scripted-model',
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id, name: call.tool, arguments: call.args }], finish_reason: 'tool_call' }]),
      'gen_ai.usage.input_tokens': 100 + i,
      'gen_ai.usage.output_tokens': 20,
    });
    chat.end(t);
    const tool = child(`execute_tool ${call.tool}`, {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': call.tool,
      'gen_ai.tool.call.id': id,
      'gen_ai.tool.call.arguments': JSON.stringify(call.args),
      'gen_ai.tool.call.result': call.result,
    });
    if (call.error) {
      tool.recordException({ name: 'ToolError', message: call.error }, t);
      tool.setStatus({ code: 2, message: call.error });
    }
    tool.end(t);
  });
  agent.end(t + step);
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  await provider.shutdown();
  return spans;
}

/** The spans as OTLP/HTTP JSON, one ExportTraceServiceRequest per batch of `batchSize` spans (export order). */
export function otlpJsonBatches(spans: ReadableSpan[], batchSize = spans.length): string[] {
  return chunks(spans, batchSize).map((batch) => Buffer.from(JsonTraceSerializer.serializeRequest(batch) ?? new Uint8Array()).toString('utf8'));
}

/** The spans as OTLP/HTTP protobuf bodies, one per batch. */
export function otlpProtobufBatches(spans: ReadableSpan[], batchSize = spans.length): Uint8Array[] {
  return chunks(spans, batchSize).map((batch) => ProtobufTraceSerializer.serializeRequest(batch) ?? new Uint8Array());
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
