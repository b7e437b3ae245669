/**
 * TracedBus on the in-process bus, three hops like the pipeline's (step → localized → deviation →
 * correction), with the last hop handled as a batch: each correction carries the trace of the step
 * that caused it, batch spans link their producers, sampled per-event spans carry the GenAI attributes,
 * and with sampling at 0 no per-event span exists while the trace still crosses every hop.
 */
import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { InProcessBus, type Delivered } from '@wayfinder/bus';
import type { Correction, Deviation, LocalizedStep, StepEvent } from '@wayfinder/contracts';
import { startTelemetry, type Telemetry } from './telemetry.sdk';
import { SPAN_ATTRIBUTES, TracedBus } from './traced.bus';

const spans = new InMemorySpanExporter();
let telemetry: Telemetry;

beforeAll(() => {
  telemetry = startTelemetry({ serviceName: 'wayfinder-test', env: {}, spanProcessors: [new SimpleSpanProcessor(spans)] });
});
afterAll(() => telemetry.shutdown());

const TS = '2026-01-01T00:00:00.000Z';

function step(agentId: string, seq: number): StepEvent {
  return {
    schema: 'wayfinder.step.v1', eventId: `${agentId}-s${seq}`, tenantId: 'acme', ts: TS, agentId, taskId: 'report', runId: 'r1', seq,
    kind: 'action', action: { tool: 'search_web', args: { q: 'competitors' } },
  };
}

function deviationOf(localized: LocalizedStep): Deviation {
  const s = localized.step;
  return {
    schema: 'wayfinder.deviation.v1', eventId: `${s.eventId}:generic_repeat:warning`, tenantId: s.tenantId, ts: TS, agentId: s.agentId, taskId: s.taskId,
    runId: s.runId ?? null, detector: 'generic_repeat', level: 'warning', count: 11, atSeq: s.seq, loopStartSeq: 0, evidence: {}, message: 'repeat',
  };
}

function correctionOf(d: Deviation): Correction {
  return {
    schema: 'wayfinder.correction.v1', eventId: `corr:${d.eventId}`, tenantId: d.tenantId, ts: TS, agentId: d.agentId, taskId: d.taskId, runId: d.runId,
    deviationIds: [d.eventId], severity: 'mild', atSeq: d.atSeq, reason: 'loop', action: 'hint', hint: { text: 'stop repeating' },
  };
}

function traceIdOf(headers: Readonly<Record<string, string>>): string | undefined {
  return /^00-([0-9a-f]{32})-[0-9a-f]{16}-0[01]$/.exec(headers['traceparent'] ?? '')?.[1];
}

async function runPipeline(
  eventSampleRatio: number,
  agentId: string,
  steps: number,
  propagation: 'sampled' | 'all' = 'sampled',
): Promise<{ corrections: Delivered<Correction>[]; sendTraces: Map<string, string> }> {
  const bus = new TracedBus(new InProcessBus(), { eventSampleRatio, system: 'in-process', propagation });
  const corrections: Delivered<Correction>[] = [];
  // A batch handler publishing once for the whole batch (payloads of several traces in one call).
  bus.subscribe('wayfinder.steps.v1', async (batch) => {
    const localized = batch.map((d): LocalizedStep => ({
      schema: 'wayfinder.localized.v1', eventId: d.payload.eventId, tenantId: d.payload.tenantId, ts: TS, step: d.payload,
      position: { milestoneId: null, completed: [], progress: 0, confidence: 0, method: 'unknown' },
    }));
    await bus.publish('wayfinder.localized.v1', localized);
  }, { groupId: 'state-localizer' });
  bus.subscribe('wayfinder.localized.v1', async (batch) => {
    await bus.publish('wayfinder.deviations.v1', batch.map((d) => deviationOf(d.payload)));
  }, { groupId: 'detector-worker' });
  bus.subscribe('wayfinder.deviations.v1', async (batch) => {
    for (const d of batch) await bus.publish('wayfinder.corrections.v1', [correctionOf(d.payload)]);
  }, { groupId: 'correction-engine' });
  // Per-message handling, like BusTransport's @EventPattern.
  bus.subscribe('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch), { groupId: 'agent' });

  const sendTraces = new Map<string, string>();
  for (let seq = 1; seq <= steps; seq++) {
    // Each step is published on its own, outside any trace: each starts a trace of its own. They wait
    // for start(), so the first hop gets them as one batch.
    await bus.publish('wayfinder.steps.v1', [step(agentId, seq)]);
    const send = spans.getFinishedSpans().filter((s) => s.name === 'send wayfinder.steps.v1').at(-1)!;
    sendTraces.set(`${agentId}-s${seq}`, send.spanContext().traceId);
  }
  await bus.start();
  for (let i = 0; i < 500 && corrections.length < steps; i++) await new Promise((r) => setTimeout(r, 5));
  await bus.stop();
  return { corrections, sendTraces };
}

describe('TracedBus', () => {
  it('gives each correction the trace of the step that caused it, across per-message and batch hops', async () => {
    spans.reset();
    const { corrections, sendTraces } = await runPipeline(1, 'a1', 3);
    expect(corrections).toHaveLength(3);
    expect(new Set(sendTraces.values()).size).toBe(3);
    const firstHop = spans.getFinishedSpans().find((s) => s.name === 'process wayfinder.steps.v1')!;
    expect(firstHop.attributes[SPAN_ATTRIBUTES.batchCount]).toBe(3);
    for (const delivered of corrections) {
      const stepId = delivered.payload.deviationIds[0].split(':')[0];
      expect(traceIdOf(delivered.headers)).toBe(sendTraces.get(stepId));
    }
  });

  it('links each batch span to the producers of its messages and makes it a root', () => {
    const finished = spans.getFinishedSpans();
    const batchSpans = finished.filter((s) => s.name === 'process wayfinder.steps.v1');
    expect(batchSpans.length).toBeGreaterThan(0);
    const linkedTraces = new Set(batchSpans.flatMap((s) => s.links.map((l) => l.context.traceId)));
    const stepTraces = new Set(finished.filter((s) => s.name === 'send wayfinder.steps.v1').map((s) => s.spanContext().traceId));
    expect(linkedTraces).toEqual(stepTraces);
    for (const s of batchSpans) {
      expect(s.kind).toBe(SpanKind.CONSUMER);
      expect(s.parentSpanContext).toBeUndefined();
      expect(s.attributes[SPAN_ATTRIBUTES.consumerGroup]).toBe('state-localizer');
    }
  });

  it('gives sampled messages a per-event span in the step trace, with the GenAI attributes', () => {
    const finished = spans.getFinishedSpans();
    const events = finished.filter((s) => s.name === 'process wayfinder.steps.v1 event');
    expect(events).toHaveLength(3);
    const send = new Map(finished.filter((s) => s.name === 'send wayfinder.steps.v1').map((s) => [s.spanContext().traceId, s] as const));
    expect(events).toHaveLength(3);
    for (const event of events) {
      const producer = send.get(event.spanContext().traceId) as ReadableSpan;
      expect(event.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
      expect(event.attributes[SPAN_ATTRIBUTES.agentId]).toBe('a1');
      expect(event.attributes[SPAN_ATTRIBUTES.toolName]).toBe('search_web');
      expect(event.attributes[SPAN_ATTRIBUTES.tenant]).toBe('acme');
      expect(event.links).toHaveLength(1);
    }
    // The correction hop's per-event span is a descendant in the same trace as its step.
    const correctionEvents = finished.filter((s) => s.name === 'process wayfinder.corrections.v1 event');
    expect(new Set(correctionEvents.map((s) => s.spanContext().traceId))).toEqual(new Set(send.keys()));
  });

  it('creates no per-event span for unsampled traces, and carries them on only with propagation "all"', async () => {
    spans.reset();
    const all = await runPipeline(0, 'b1', 2, 'all');
    expect(spans.getFinishedSpans().filter((s) => s.name.endsWith(' event'))).toEqual([]);
    expect(all.corrections).toHaveLength(2);
    for (const delivered of all.corrections) {
      expect(traceIdOf(delivered.headers)).toBe(all.sendTraces.get(delivered.payload.deviationIds[0].split(':')[0]));
    }
    // The default: an unsampled trace records nothing past its first hop, so nothing carries it on.
    const sampledOnly = await runPipeline(0, 'b2', 2);
    expect(sampledOnly.corrections).toHaveLength(2);
    for (const delivered of sampledOnly.corrections) expect(delivered.headers['traceparent']).toBeUndefined();
    const firstHop = spans.getFinishedSpans().filter((s) => s.name === 'process wayfinder.steps.v1').at(-1)!;
    expect(new Set(firstHop.links.map((l) => l.context.traceId))).toEqual(new Set(sampledOnly.sendTraces.values()));
  });

  it('continues the active trace when publishing inside a span, and records a failed batch on its span', async () => {
    spans.reset();
    const bus = new TracedBus(new InProcessBus({ retry: { maxAttempts: 2, initialBackoffMs: 1, maxBackoffMs: 1 } }), { eventSampleRatio: 0 });
    let attempts = 0;
    const seen: string[] = [];
    bus.subscribe('wayfinder.steps.v1', async (batch) => {
      attempts++;
      seen.push(...batch.map((d) => traceIdOf(d.headers) ?? 'none'));
      if (attempts === 1) throw new Error('transient');
    }, { groupId: 'flaky' });
    await bus.start();
    await trace.getTracer('test').startActiveSpan('agent turn', async (span) => {
      await bus.publish('wayfinder.steps.v1', [step('c1', 1)]);
      span.end();
    });
    for (let i = 0; i < 200 && attempts < 2; i++) await new Promise((r) => setTimeout(r, 5));
    await bus.stop();
    const turn = spans.getFinishedSpans().filter((s) => s.name === 'agent turn').at(-1)!;
    expect(spans.getFinishedSpans().filter((s) => s.name === 'send wayfinder.steps.v1')).toEqual([]);
    expect(seen).toEqual([turn.spanContext().traceId, turn.spanContext().traceId]);
    const batches = spans.getFinishedSpans().filter((s) => s.name === 'process wayfinder.steps.v1');
    expect(batches.map((s) => s.status.code)).toEqual([2, 0]);
    expect(batches[0].events.map((e) => e.name)).toContain('exception');
  });
});
