/**
 * On the real Kafka broker: the stage services in one process (WAYFINDER_PIPELINE=separate), every edge a Kafka hop through
 * TracedBus. An agent publishes each step inside a span of its own (one trace per step); the deviation
 * raised on a step and the correction it got carry that step's trace id in their Kafka headers, and the
 * sampled per-event spans of every hop are in that trace with the agent id. Also: consumer lag read from
 * the broker by KafkaLagMonitor.
 */
import { trace } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createTopics, KafkaBus, type Delivered } from '@wayfinder/bus';
import { loadConfig } from '@wayfinder/config';
import type { Correction, Deviation } from '@wayfinder/contracts';
import { startServices, type RunningServices } from '@wayfinder/service-runtime';
import { KafkaLagMonitor, SPAN_ATTRIBUTES, startTelemetry, TracedBus, type Telemetry } from '@wayfinder/telemetry';
import { deleteTestTopics, kafkaBrokers, requireKafka, uniqueTestName } from '@wayfinder/testing';
import { stepWriter, taskSpec } from './routed-handlers';

const brokers = kafkaBrokers();
const topicPrefix = `${uniqueTestName('trace')}.`;
const spans = new InMemorySpanExporter();
let telemetry: Telemetry;
let running: RunningServices | undefined;

function traceIdOf(headers: Readonly<Record<string, string>>): string | undefined {
  return /^00-([0-9a-f]{32})-[0-9a-f]{16}-0[01]$/.exec(headers['traceparent'] ?? '')?.[1];
}

async function until(predicate: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  await requireKafka(brokers);
  await createTopics(brokers, { topicPrefix, partitionsOverride: 1 });
  telemetry = startTelemetry({
    serviceName: 'wayfinder-trace-it',
    env: {},
    spanProcessors: [new SimpleSpanProcessor(spans)],
    metricExporters: [new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)],
  });
});

afterAll(async () => {
  await running?.stop();
  await telemetry?.shutdown();
  await deleteTestTopics(brokers, topicPrefix);
});

describe('one trace from step to correction over Kafka', () => {
  const deviations: Delivered<Deviation>[] = [];
  const corrections: Delivered<Correction>[] = [];
  const stepTraces = new Map<number, string>();
  const agentId = 'agent-trace-1';

  it('carries the step trace id through localizer, detector and correction engine', async () => {
    const bus = new TracedBus(new KafkaBus({ brokers, topicPrefix, clientId: 'trace-it' }), { eventSampleRatio: 1 });
    bus.subscribe('wayfinder.deviations.v1', async (batch) => void deviations.push(...batch), { groupId: 'observer' });
    bus.subscribe('wayfinder.corrections.v1', async (batch) => void corrections.push(...batch), { groupId: 'observer' });
    running = await startServices(loadConfig({ WAYFINDER_TRACE_SAMPLE_RATIO: '1', WAYFINDER_PIPELINE: 'separate' }), { bus, logger: false });

    await bus.publish('wayfinder.tasks.v1', [taskSpec('acme', 'report')]);
    let mapReady = false;
    await until(() => {
      void running!.mapStore.get('acme', 'report').then((m) => (mapReady = m !== undefined));
      return mapReady;
    }, 'the map');

    const agent = stepWriter('acme', agentId, 'report', 0);
    const tracer = trace.getTracer('agent');
    for (let i = 0; i < 8; i++) {
      for (const step of agent.failingRead(i)) {
        // What an instrumented agent does: its step is published inside its own span.
        await tracer.startActiveSpan(`agent step ${step.seq}`, async (span) => {
          stepTraces.set(step.seq, span.spanContext().traceId);
          await bus.publish('wayfinder.steps.v1', [step]);
          span.end();
        });
      }
    }
    // The observer reads deviations and corrections from two topics: wait for both sides of the pair.
    await until(
      () => corrections.length > 0 && deviations.some((d) => corrections[0].payload.deviationIds.includes(d.payload.eventId)),
      'a correction and the deviation it cites',
    );

    const correction = corrections[0];
    const cause = deviations.find((d) => correction.payload.deviationIds.includes(d.payload.eventId));
    expect(cause).toBeDefined();
    const stepTrace = stepTraces.get(cause!.payload.atSeq);
    expect(stepTrace).toBeDefined();
    expect(traceIdOf(cause!.headers)).toBe(stepTrace);
    expect(traceIdOf(correction.headers)).toBe(stepTrace);
    // Every deviation carries the trace of the step it was raised on.
    for (const d of deviations) expect(traceIdOf(d.headers)).toBe(stepTraces.get(d.payload.atSeq));
  });

  it('has a per-event span on every hop of that trace, carrying the agent id', () => {
    const correction = corrections[0];
    const traceId = traceIdOf(correction.headers)!;
    const inTrace = spans.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const hops = new Set(inTrace.filter((s) => s.name.endsWith(' event')).map((s) => s.attributes[SPAN_ATTRIBUTES.destination]));
    expect(hops).toEqual(new Set(['wayfinder.steps.v1', 'wayfinder.localized.v1', 'wayfinder.deviations.v1', 'wayfinder.detected.v1', 'wayfinder.corrections.v1']));
    for (const span of inTrace.filter((s) => s.name.endsWith(' event'))) expect(span.attributes[SPAN_ATTRIBUTES.agentId]).toBe(agentId);
  });

  it('reads consumer lag from the broker', async () => {
    const monitor = new KafkaLagMonitor({
      brokers,
      topicPrefix,
      groups: [{ groupId: 'never-consumed', topics: ['wayfinder.steps.v1'] }],
    });
    try {
      // A group that never committed lags by everything the topic holds: every step published.
      expect(await monitor.poll()).toEqual([{ group: 'never-consumed', topic: 'wayfinder.steps.v1', lag: stepTraces.size }]);
    } finally {
      await monitor.stop();
    }
  });
});
