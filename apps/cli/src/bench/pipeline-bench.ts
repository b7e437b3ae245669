/**
 * `wayfinder bench pipeline` (issue: fleet pipeline): drives the real Kafka pipeline — every service
 * (task-parser, state-localizer, detector-worker, correction-engine, memory) co-located in a child
 * process, each in its own consumer group, as `wayfinder start --mode distributed` runs them — with a
 * synthetic fleet from this process, and reports sustained throughput (steps every per-step stage has
 * committed, and each stage's own figure), step → correction latency,
 * consumer lag and the pipeline process's CPU time per step. The child process keeps the load
 * generator's CPU apart from the pipeline's; on a 2-core machine both share the cores with the broker.
 * `--telemetry` turns traces and metrics on in the pipeline, exported over OTLP to a sink in this
 * process; without it the pipeline runs with OTEL_SDK_DISABLED, so the two CPU figures give the cost.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StepEvent } from '@wayfinder/contracts';
import { KafkaBus, createTopics } from '@wayfinder/bus';
import { startWayfinderChild, stopChild } from './child';
import { runFloorBench, type FloorBenchResult } from './floor-bench';
import { decompose, type LatencyDecomposition } from './latency-decomposition';
import { benchAdmin, committedCount, endCount } from './offsets';
import { stepOf } from './steps';

export interface PipelineBenchOptions {
  brokers: string[];
  agents: number;
  /** Step events per second; 0 publishes as fast as the pipeline accepts (bounded in-flight). */
  rate: number;
  durationSec: number;
  /** Share of agents stuck in a loop (they produce deviations and corrections). */
  loopingShare: number;
  partitions: number;
  /** Traces and metrics on in the pipeline, exported over OTLP/HTTP to a sink in this process. */
  telemetry?: boolean;
  /** Each stage its own consumer group over Kafka (WAYFINDER_PIPELINE=separate) instead of the one-pass navigator. */
  separate?: boolean;
  /** The pipeline to run (WAYFINDER_PIPELINE; default one-pass, the product's default); `separate` wins. */
  pipeline?: Layout;
  /** Steps through `bench floor` before the pipeline starts (0: no floor). */
  floorMessages?: number;
  /**
   * Also (after the run at a rate) a catch-up run: this many steps published before the pipeline starts,
   * drained as fast as it can, like the floor — CPU per step at full speed, whatever the load generator manages.
   */
  backlog?: number;
  /**
   * Where step → correction latency goes (latency-probe.js in the bench and the pipeline process): the
   * load generator's publish, fetch cycle and batch sizes, the handler, the correction's way out.
   */
  decompose?: boolean;
}

export interface BacklogResult {
  steps: number;
  stepsPerSec: number;
  cpuMicrosPerStep: number | null;
  /** cpuMicrosPerStep ÷ the floor's CPU µs per message (same run). */
  cpuRatioToFloor?: number | null;
}

export interface PipelineBenchResult {
  agents: number;
  rateTarget: number;
  durationSec: number;
  published: number;
  /**
   * Steps every per-step stage has committed. Separate: the localizer on the steps, and the detector worker,
   * the correction engine and the memory service on the localized steps. One-pass: the navigator's group on
   * the steps, committed only after its in-process readers (history, memory) are done.
   */
  processed: number;
  /** Steps per second through every stage during the load (the slowest stage's committed count). */
  eventsPerSec: number;
  /** Per stage, steps committed at the end of the load ÷ load seconds (the detector worker's was the headline figure before 2026-12-01). */
  stageEventsPerSec: Record<string, number>;
  p50Ms: number | null;
  p99Ms: number | null;
  /** Step published → deviation consumed. */
  deviationP50Ms: number | null;
  deviationP99Ms: number | null;
  corrections: number;
  deviations: number;
  lagMax: number;
  lagEnd: number;
  drainSec: number;
  /** CPU time of the pipeline process per step, from the start of the load until it caught up. */
  pipelineCpuMicrosPerStep: number | null;
  /** The pipeline's layout: the one-pass navigator or the separate stages. */
  layout: Layout;
  /** `bench floor` run just before, on the same broker and topic layout. */
  floor?: FloorBenchResult;
  /** pipelineCpuMicrosPerStep ÷ the floor's CPU µs per message (same run). */
  cpuRatioToFloor?: number | null;
  /** Load average (1, 5, 15 min) when the load stopped: how shared the machine was. */
  loadAverage: number[];
  /** With --backlog: the catch-up run. */
  backlog?: BacklogResult;
  /** With --telemetry: OTLP requests and bytes the sink received (traces and metrics). */
  telemetryExports?: { requests: number; bytes: number };
  /** With --decompose: the stages of step → correction latency (latency-decomposition.ts). */
  decomposition?: LatencyDecomposition;
}

export async function runPipelineBench(options: PipelineBenchOptions, log: (line: string) => void): Promise<PipelineBenchResult> {
  const floor = (options.floorMessages ?? 0) > 0
    ? await runFloorBench({ brokers: options.brokers, agents: options.agents, messages: options.floorMessages!, partitions: options.partitions }, log)
    : undefined;
  if (floor) log(`floor: ${floor.messagesPerSec} messages/s, ${floor.cpuMicrosPerMessage} µs CPU per message`);
  const result = await runPipeline(options, log);
  const ratioOf = (micros: number | null) => (floor && micros !== null ? Math.round((micros / floor.cpuMicrosPerMessage) * 100) / 100 : null);
  let backlog: BacklogResult | undefined;
  if ((options.backlog ?? 0) > 0) {
    const drained = await runBacklog(options, log);
    backlog = { ...drained, ...(floor ? { cpuRatioToFloor: ratioOf(drained.cpuMicrosPerStep) } : {}) };
  }
  return { ...result, ...(floor ? { floor, cpuRatioToFloor: ratioOf(result.pipelineCpuMicrosPerStep) } : {}), ...(backlog ? { backlog } : {}) };
}

type Layout = 'one-pass' | 'separate';

function layoutOf(options: PipelineBenchOptions): Layout {
  return options.separate ? 'separate' : (options.pipeline ?? 'one-pass');
}

/** Every consumer group a step goes through, with the topic it reads it on (one localized step per step). */
function stagesOf(layout: Layout, prefix: string): Array<{ name: string; topic: string }> {
  const steps = `${prefix}wayfinder.steps.v1`;
  const localized = `${prefix}wayfinder.localized.v1`;
  // One-pass, the navigator's group carries the step through localization, detection and correction,
  // then to the history recorder and the memory service in process, before it commits.
  if (layout === 'one-pass') return [{ name: 'navigator', topic: steps }];
  return [
    { name: 'state-localizer', topic: steps },
    { name: 'detector-worker', topic: localized },
    { name: 'correction-engine', topic: localized },
    { name: 'memory-service', topic: localized },
  ];
}

const BENCH_GOAL = 'read every part of the sales data -> compute the totals per region -> write the quarterly report';

/** The catch-up run (see PipelineBenchOptions.backlog): the steps first, then the pipeline, timed until every stage committed them. */
async function runBacklog(options: PipelineBenchOptions, log: (line: string) => void): Promise<{ steps: number; stepsPerSec: number; cpuMicrosPerStep: number | null }> {
  const layout = layoutOf(options);
  const prefix = `backlog-${Date.now().toString(36)}.`;
  const total = options.backlog!;
  await createTopics(options.brokers, { topicPrefix: prefix, partitionsOverride: options.partitions });
  const bus = new KafkaBus({ brokers: options.brokers, topicPrefix: prefix, clientId: 'bench-backlog' });
  await bus.start();
  const admin = benchAdmin(options.brokers);
  await admin.connect();
  try {
    // The maps first (a task-parser alone), so that the steps are localized at once, not held for their map.
    await bus.publish('wayfinder.tasks.v1', [0, 1, 2].map((t) => ({ schema: 'wayfinder.task.v1' as const, eventId: `bench-task-${t}`, tenantId: `tenant-${t}`, ts: new Date().toISOString(), taskId: 'bench', goal: BENCH_GOAL })));
    const parser = startWayfinderChild({ brokers: options.brokers, prefix, services: 'task-parser', env: { OTEL_SDK_DISABLED: 'true' } });
    try {
      await parser.ready;
      for (const since = Date.now(); (await endCount(admin, `${prefix}wayfinder.maps.v1`)) < 3; ) {
        if (Date.now() - since > 60_000) throw new Error('backlog: the task-parser made no maps in 60 s');
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await stopChild(parser);
    }
    log('backlog: maps made, task-parser stopped');
    const looping = Math.max(1, Math.round(options.agents * options.loopingShare));
    const perAgent = total / options.agents;
    const seqs = new Array<number>(options.agents).fill(0);
    let agent = 0;
    for (let published = 0; published < total; ) {
      const batch: StepEvent[] = [];
      for (let i = 0; i < 1_000 && published + i < total; i++) {
        const seq = seqs[agent]++;
        batch.push(stepOf(agent, seq, agent < looping && seq >= perAgent / 2));
        agent = (agent + 1) % options.agents;
      }
      await bus.publish('wayfinder.steps.v1', batch);
      published += batch.length;
    }
  } catch (error) {
    await admin.disconnect().catch(() => undefined);
    throw error;
  } finally {
    await bus.stop().catch(() => undefined);
  }
  log(`backlog: ${total} steps published; the pipeline starts on them`);
  const pipeline = startWayfinderChild({ brokers: options.brokers, prefix, env: { WAYFINDER_PIPELINE: layout, OTEL_SDK_DISABLED: 'true' } });
  try {
    await pipeline.ready;
    const started = Date.now();
    const cpuAtStart = pipeline.cpuSeconds();
    const stages = stagesOf(layout, prefix);
    let nextLog = started + 5_000;
    for (;;) {
      const committed = await Promise.all(stages.map((st) => committedCount(admin, `${prefix}bench.${st.name}`, st.topic)));
      if (Math.min(...committed) >= total) break;
      if (Date.now() >= nextLog) {
        log(`backlog: t=${((Date.now() - started) / 1000).toFixed(0)}s committed ${stages.map((st, i) => `${st.name}=${committed[i]}`).join(' ')} of ${total}`);
        nextLog = Date.now() + 5_000;
      }
      if (Date.now() - started > 300_000) throw new Error(`backlog: not drained after 300 s (${committed.join(', ')} of ${total})`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (Date.now() - started) / 1000;
    const cpuAtEnd = pipeline.cpuSeconds();
    return {
      steps: total,
      stepsPerSec: Math.round(total / seconds),
      cpuMicrosPerStep: cpuAtStart !== undefined && cpuAtEnd !== undefined ? Math.round(((cpuAtEnd - cpuAtStart) * 1e6) / total) : null,
    };
  } finally {
    await stopChild(pipeline);
    await admin.disconnect().catch(() => undefined);
  }
}

async function runPipeline(options: PipelineBenchOptions, log: (line: string) => void): Promise<PipelineBenchResult> {
  const layout = layoutOf(options);
  const prefix = `bench-${Date.now().toString(36)}.`;
  await createTopics(options.brokers, { topicPrefix: prefix, partitionsOverride: options.partitions });
  const sink = options.telemetry ? await startOtlpSink() : undefined;
  const probeFile = options.decompose ? join(tmpdir(), `wayfinder-latency-${prefix}jsonl`) : undefined;
  // eslint-disable-next-line @typescript-eslint/no-var-requires -- a plain CommonJS preload, also used by the child
  if (probeFile) (require('./latency-probe.js') as { install(file: string, label: string): void }).install(probeFile, 'bench');
  const pipeline = startWayfinderChild({
    brokers: options.brokers,
    prefix,
    latencyProbeFile: probeFile,
    env: {
      WAYFINDER_PIPELINE: layout,
      ...(sink ? { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_METRIC_EXPORT_INTERVAL: '5000' } : { OTEL_SDK_DISABLED: 'true' }),
    },
  });
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const stepToDecided: number[] = [];
  const publishMs: number[] = [];
  let corrections = 0;
  let deviations = 0;
  const bus = new KafkaBus({ brokers: options.brokers, topicPrefix: prefix, clientId: 'bench-load' });
  bus.subscribe('wayfinder.corrections.v1', async (batch) => {
    const now = Date.now();
    for (const { payload } of batch) {
      corrections++;
      const t = sentAt.get(`${payload.agentId}/${payload.atSeq}`);
      if (t !== undefined) {
        latencies.push(now - t);
        stepToDecided.push(Date.parse(payload.ts) - t);
      }
    }
  }, { groupId: 'bench-observer', fromBeginning: true });
  const deviationLatencies: number[] = [];
  bus.subscribe('wayfinder.deviations.v1', async (batch) => {
    const now = Date.now();
    for (const { payload } of batch) {
      deviations++;
      const t = sentAt.get(`${payload.agentId}/${payload.atSeq}`);
      if (t !== undefined) deviationLatencies.push(now - t);
    }
  }, { groupId: 'bench-observer', fromBeginning: true });
  const admin = benchAdmin(options.brokers);
  try {
    await Promise.all([bus.start(), admin.connect(), pipeline.ready]);
    const stepsTopic = `${prefix}wayfinder.steps.v1`;
    // A step is done when every group it goes through has committed past it.
    const stages = stagesOf(layout, prefix);
    const lagNow = async (): Promise<{ lag: number; processed: number; byStage: Record<string, number> }> => {
      const [published, ...committed] = await Promise.all([endCount(admin, stepsTopic), ...stages.map((st) => committedCount(admin, `${prefix}bench.${st.name}`, st.topic))]);
      const processed = Math.min(...committed);
      return { lag: published - processed, processed, byStage: Object.fromEntries(stages.map((st, i) => [st.name, committed[i]])) };
    };

    // Each tenant's task has a map, so steps are localized at once rather than held for one.
    await bus.publish('wayfinder.tasks.v1', [0, 1, 2].map((t) => ({
      schema: 'wayfinder.task.v1' as const, eventId: `bench-task-${t}`, tenantId: `tenant-${t}`, ts: new Date().toISOString(), taskId: 'bench',
      goal: BENCH_GOAL,
    })));
    await new Promise((r) => setTimeout(r, 1_000));
    const looping = Math.max(1, Math.round(options.agents * options.loopingShare));
    const seqs = new Array<number>(options.agents).fill(0);
    // Loops start at staggered points of the run (10% to 80% of each agent's steps), so corrections, and
    // their latency, are sampled over the whole run rather than only in its first seconds.
    const stepsPerAgent = options.rate > 0 ? (options.rate * options.durationSec) / options.agents : 200;
    const loopFrom = Array.from({ length: options.agents }, (_, a) =>
      a < looping ? 2 * Math.floor((stepsPerAgent * (0.1 + (0.7 * a) / looping)) / 2) : Number.POSITIVE_INFINITY,
    );
    let published = 0;
    let lagMax = 0;
    const started = Date.now();
    const cpuAtStart = pipeline.cpuSeconds();
    const deadline = started + options.durationSec * 1000;
    let nextLagCheck = started + 1000;
    let agent = 0;
    // At a set rate, one publish every 100 ms (as an SDK flushing its buffer would); large ones when flooding.
    const batchSize = options.rate > 0 ? Math.max(1, Math.round(options.rate / 10)) : 500;
    while (Date.now() < deadline) {
      const batch: StepEvent[] = [];
      for (let i = 0; i < batchSize; i++) {
        batch.push(stepOf(agent, seqs[agent], seqs[agent]++ >= loopFrom[agent]));
        agent = (agent + 1) % options.agents;
      }
      const t = Date.now();
      for (const s of batch) sentAt.set(`${s.agentId}/${s.seq}`, t);
      await bus.publish('wayfinder.steps.v1', batch);
      publishMs.push(Date.now() - t);
      published += batch.length;
      if (options.rate > 0) {
        const due = started + (published / options.rate) * 1000;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      if (Date.now() >= nextLagCheck) {
        const { lag } = await lagNow();
        lagMax = Math.max(lagMax, lag);
        nextLagCheck = Date.now() + 1000;
        log(`t=${((Date.now() - started) / 1000).toFixed(0)}s published=${published} lag=${lag} deviations=${deviations} corrections=${corrections}`);
      }
    }
    const loadSec = (Date.now() - started) / 1000;
    const loadAverage = loadavg().map((l) => Math.round(l * 100) / 100);
    const atEnd = await lagNow();
    // Drain: wait (bounded) until the pipeline caught up, to report what it sustained.
    const drainStart = Date.now();
    let state = atEnd;
    while (state.lag > 0 && Date.now() - drainStart < 60_000) {
      await new Promise((r) => setTimeout(r, 250));
      state = await lagNow();
    }
    const drainSec = (Date.now() - drainStart) / 1000;
    const cpuAtEnd = pipeline.cpuSeconds();
    const cpuSeconds = cpuAtStart !== undefined && cpuAtEnd !== undefined ? cpuAtEnd - cpuAtStart : undefined;
    latencies.sort((a, b) => a - b);
    deviationLatencies.sort((a, b) => a - b);
    const pctOf = (values: number[], p: number) => (values.length ? values[Math.min(values.length - 1, Math.floor(p * values.length))] : null);
    const pct = (p: number) => pctOf(latencies, p);
    return {
      layout,
      loadAverage,
      agents: options.agents,
      rateTarget: options.rate,
      durationSec: options.durationSec,
      published,
      processed: state.processed,
      eventsPerSec: Math.round(atEnd.processed / loadSec),
      stageEventsPerSec: Object.fromEntries(Object.entries(atEnd.byStage).map(([name, n]) => [name, Math.round(n / loadSec)])),
      p50Ms: pct(0.5),
      p99Ms: pct(0.99),
      deviationP50Ms: pctOf(deviationLatencies, 0.5),
      deviationP99Ms: pctOf(deviationLatencies, 0.99),
      corrections,
      deviations,
      lagMax: Math.max(lagMax, atEnd.lag),
      lagEnd: state.lag,
      drainSec: Math.round(drainSec * 10) / 10,
      pipelineCpuMicrosPerStep: cpuSeconds !== undefined && published > 0 ? Math.round((cpuSeconds * 1e6) / published) : null,
      ...(sink ? { telemetryExports: sink.received() } : {}),
      ...(probeFile
        ? {
            decomposition: decompose(probeFile, {
              stepsTopic: stepsTopic,
              stepsGroup: `${prefix}bench.state-localizer`,
              publishMs,
              stepToDecidedMs: stepToDecided,
              window: { from: started, to: Date.now() },
            }),
          }
        : {}),
    };
  } finally {
    await stopChild(pipeline);
    await sink?.close();
    await bus.stop().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
}

/** Accepts OTLP/HTTP exports (any path) and counts them: the cost of exporting, without a collector. */
async function startOtlpSink(): Promise<{ url: string; received(): { requests: number; bytes: number }; close(): Promise<void> }> {
  let requests = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => void (bytes += chunk.length));
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => ({ requests, bytes }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
