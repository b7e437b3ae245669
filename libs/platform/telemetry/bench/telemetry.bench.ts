/**
 * Per-event cost of telemetry on navigation throughput (DESIGN §7: no per-event span on the hot path).
 * A synthetic fleet's steps go through the in-process bus to a batch handler running the whole
 * navigation (createNavigator: localization, detectors, correction ladder), which publishes deviations
 * and corrections per batch to a sink, in these variants (each run `rounds` times, best reported):
 *   none          raw bus, no telemetry call at all (the floor)
 *   off           TracedBus + NavigationMetrics calls, SDK not started (the default embedded mode);
 *                 measured before the SDK starts — the others after it, in one process
 *   metrics       SDK started; NavigationMetrics on a real MeterProvider; raw bus
 *   traces 1/64   metrics + TracedBus with a real tracer, per-event spans for 1/64 of traces
 *   traces all    metrics + TracedBus, a per-event span for every message (worst case)
 * Each agent's steps are published one call per step outside any trace, as independent agents would,
 * so with tracing on each step starts a trace (a PRODUCER span) — the agents' SDK cost, included.
 * Steps are queued first (the agents' side, timed per publish), then navigated in full batches (timed
 * as throughput), so the two costs are separate and batch sizes do not depend on scheduling.
 * Run: node bin/run-ts.js libs/platform/telemetry/bench/telemetry.bench.ts [steps] [agents] [rounds]
 */
import { resolve } from 'node:path';
import { AggregationTemporality, InMemoryMetricExporter } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ExportResultCode } from '@opentelemetry/core';
import { InProcessBus, type Bus } from '@wayfinder/bus';
import type { StepEvent, TaskSpec } from '@wayfinder/contracts';
import { PROFILES } from '@wayfinder/detection';
import { createNavigator } from '@wayfinder/navigation';
import { navigationMetrics, type NavigationMetrics } from '../src/navigation.metrics';
import { startTelemetry } from '../src/telemetry.sdk';
import { TracedBus } from '../src/traced.bus';

export interface TelemetryBenchOptions {
  /** Steps per variant (default 20,000). */
  readonly steps?: number;
  /** Agents in the fleet (default 200). */
  readonly agents?: number;
  /** Runs of each variant; the best is reported (default 3). */
  readonly rounds?: number;
}

export interface VariantResult {
  readonly variant: string;
  /** Navigation throughput of the consumer (localize, detect, correct, publish outcomes). */
  readonly stepsPerSec: number;
  /** The producer side: one publish per step, with its PRODUCER span when tracing is on. */
  readonly publishMicrosPerStep: number;
  readonly deviations: number;
  readonly corrections: number;
  readonly spans: number;
}

/** Counts spans and drops them (export cost without memory growth). */
class CountingSpanExporter implements SpanExporter {
  count = 0;
  export(spans: ReadableSpan[], done: (result: { code: ExportResultCode }) => void): void {
    this.count += spans.length;
    done({ code: ExportResultCode.SUCCESS });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** Large enough to queue a whole run before consuming it. */
const QUEUE = 1_000_000;
const GOAL = 'Collect the sources -> compare the competitors -> write the report';

function fleetStep(agent: number, seq: number): StepEvent {
  const base = {
    schema: 'wayfinder.step.v1' as const, eventId: `a${agent}-s${seq}`, tenantId: `tenant-${agent % 5}`, agentId: `agent-${agent}`,
    taskId: `task-${agent}`, runId: 'r1', seq, ts: new Date(Date.UTC(2026, 0, 1) + seq * 1000).toISOString(),
  };
  const call = seq >> 1;
  // One agent in four loops on a failing call; the others vary their queries.
  const looping = agent % 4 === 0 && call % 40 > 20;
  const tool = looping ? 'read_file' : ['web_search', 'visit_page', 'python'][call % 3];
  const args: Record<string, string> = looping ? { path: '/data/missing.csv' } : { q: `query ${agent} ${call}` };
  if (seq % 2 === 0) return { ...base, kind: 'action', action: { tool, args, callId: `c${call}` } };
  return looping
    ? { ...base, kind: 'observation', observation: { tool, callId: `c${call}`, ok: false, error: 'ENOENT: no such file' } }
    : { ...base, kind: 'observation', observation: { tool, callId: `c${call}`, ok: true, content: `result ${agent} ${call}` } };
}

async function runVariant(
  variant: string,
  bus: Bus,
  metrics: NavigationMetrics | undefined,
  steps: number,
  agents: number,
  spanCount: () => Promise<number>,
): Promise<VariantResult> {
  const tasks: TaskSpec[] = Array.from({ length: agents }, (_, a) => ({
    schema: 'wayfinder.task.v1', eventId: `task-${a}`, tenantId: `tenant-${a % 5}`, ts: '2026-01-01T00:00:00.000Z', taskId: `task-${a}`, goal: GOAL,
  }));
  const navigator = createNavigator({ policy: PROFILES.balanced, tasks });
  let processed = 0;
  let deviations = 0;
  let corrections = 0;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  bus.subscribe('wayfinder.steps.v1', async (batch) => {
    const received = batch.map((d) => d.payload);
    const outDeviations = [];
    const outCorrections = [];
    metrics?.stepsProcessed(received, 'navigator');
    for (const step of received) {
      const result = navigator.onStep(step);
      if (metrics) {
        if (result.localized) {
          const map = navigator.mapOf(step.tenantId, step.taskId);
          metrics.localized({ schema: 'wayfinder.localized.v1', eventId: step.eventId, tenantId: step.tenantId, ts: step.ts, step, position: result.localized }, map?.milestones.length ?? 0);
        }
        for (const c of result.corrections) metrics.correction(c, result.deviations[0] ?? step.ts);
        for (const e of result.escalations) metrics.escalation(e);
      }
      outDeviations.push(...result.deviations);
      outCorrections.push(...result.corrections);
    }
    metrics?.detected(received, outDeviations);
    if (outDeviations.length > 0) await bus.publish('wayfinder.deviations.v1', outDeviations);
    if (outCorrections.length > 0) await bus.publish('wayfinder.corrections.v1', outCorrections);
    processed += batch.length;
    if (processed >= steps) finish();
  }, { groupId: 'navigator' });
  bus.subscribe('wayfinder.deviations.v1', async (batch) => void (deviations += batch.length), { groupId: 'sink' });
  bus.subscribe('wayfinder.corrections.v1', async (batch) => void (corrections += batch.length), { groupId: 'sink' });
  const spansBefore = await spanCount();
  // Phase 1, the agents' side: every step published on its own (a trace each when tracing is on).
  const publishStarted = process.hrtime.bigint();
  const perAgent = Math.ceil(steps / agents);
  for (let seq = 0, sent = 0; seq < perAgent && sent < steps; seq++) {
    for (let a = 0; a < agents && sent < steps; a++, sent++) await bus.publish('wayfinder.steps.v1', [fleetStep(a, seq)]);
  }
  const publishSeconds = Number(process.hrtime.bigint() - publishStarted) / 1e9;
  // Phase 2, Wayfinder's side: the queued steps are navigated in full batches (as a lagging consumer
  // would see them), so batch sizes do not depend on how the two phases interleave.
  const started = process.hrtime.bigint();
  await bus.start();
  await finished;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await bus.stop();
  return {
    variant,
    stepsPerSec: Math.round(steps / seconds),
    publishMicrosPerStep: Math.round((publishSeconds / steps) * 1e7) / 10,
    deviations,
    corrections,
    spans: (await spanCount()) - spansBefore,
  };
}

export async function runTelemetryBench(options: TelemetryBenchOptions = {}): Promise<VariantResult[]> {
  const steps = options.steps ?? 20_000;
  const agents = options.agents ?? 200;
  const rounds = options.rounds ?? 3;
  const best = new Map<string, VariantResult>();
  const keep = (r: VariantResult) => {
    const current = best.get(r.variant);
    // Best of the rounds: on a shared machine the slow runs measure the neighbours, not the code.
    if (!current || r.stepsPerSec > current.stepsPerSec) best.set(r.variant, { ...r, publishMicrosPerStep: Math.min(r.publishMicrosPerStep, current?.publishMicrosPerStep ?? Infinity) });
  };
  const noSpans = async () => 0;
  // Warm-up (JIT, module loading) so the first measured variant is not penalized.
  await runVariant('warm-up', new InProcessBus({ queueCapacity: QUEUE }), undefined, Math.min(steps, 5_000), agents, noSpans);
  for (let round = 0; round < rounds; round++) {
    keep(await runVariant('none', new InProcessBus({ queueCapacity: QUEUE }), undefined, steps, agents, noSpans));
    keep(await runVariant('off', new TracedBus(new InProcessBus({ queueCapacity: QUEUE })), navigationMetrics(), steps, agents, noSpans));
  }

  const spans = new CountingSpanExporter();
  const telemetry = startTelemetry({
    serviceName: 'wayfinder-bench',
    env: { OTEL_METRIC_EXPORT_INTERVAL: '3600000' },
    spanProcessors: [new BatchSpanProcessor(spans, { maxQueueSize: 65_536, maxExportBatchSize: 2_048, scheduledDelayMillis: 200 })],
    metricExporters: [new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)],
  });
  const metrics = navigationMetrics();
  const counted = async () => {
    await telemetry.flush();
    return spans.count;
  };
  for (let round = 0; round < rounds; round++) {
    keep(await runVariant('none', new InProcessBus({ queueCapacity: QUEUE }), undefined, steps, agents, noSpans));
    keep(await runVariant('metrics', new InProcessBus({ queueCapacity: QUEUE }), metrics, steps, agents, noSpans));
    keep(await runVariant('traces 1/64', new TracedBus(new InProcessBus({ queueCapacity: QUEUE }), { eventSampleRatio: 1 / 64 }), metrics, steps, agents, counted));
    keep(await runVariant('traces all', new TracedBus(new InProcessBus({ queueCapacity: QUEUE }), { eventSampleRatio: 1 }), metrics, steps, agents, counted));
  }
  await telemetry.shutdown();
  return ['none', 'off', 'metrics', 'traces 1/64', 'traces all'].map((v) => best.get(v)!);
}

// Run as a script (`node bin/run-ts.js <this file>`), not when imported by a bench command.
if (process.argv[1] && resolve(process.argv[1]) === __filename) {
  const [steps, agents, rounds] = process.argv.slice(2).map((v) => Number.parseInt(v, 10));
  const given = (n: number) => (Number.isFinite(n) ? n : undefined);
  runTelemetryBench({ steps: given(steps), agents: given(agents), rounds: given(rounds) }).then(
    (results) => {
      const floor = results[0].stepsPerSec;
      for (const r of results) {
        const cost = ((1 / r.stepsPerSec - 1 / floor) * 1e6).toFixed(1);
        process.stdout.write(
          `${r.variant.padEnd(12)} navigate ${String(r.stepsPerSec).padStart(7)} steps/s (+${cost.padStart(5)} µs/step vs none)  ` +
            `publish ${String(r.publishMicrosPerStep).padStart(6)} µs/step  deviations ${r.deviations}  corrections ${r.corrections}  spans ${r.spans}\n`,
        );
      }
    },
    (error: Error) => {
      process.stderr.write(`${error.stack}\n`);
      process.exitCode = 1;
    },
  );
}
