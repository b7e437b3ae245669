/**
 * `bench pipeline --decompose` (issue #17): where a step's time goes on its way to a correction, from the
 * lines latency-probe.js wrote in the bench process (label `bench`) and in the pipeline process
 * (label `pipeline`). Kafka record timestamps are the producer's request time (kafkajs stamps a
 * record when it encodes the produce request), so
 *   step published (bench) → its produce request: the load generator's own queue (one request in flight),
 *   request → fetched: the broker and the fetch loop (kafkajs fetches again only once every batch of
 *     the previous fetch is handled),
 *   fetched → handler start: waiting for a worker (partitions in flight),
 *   handler: localize, detect, correct, publish, write state back, commit,
 *   correction decided (its `ts`) → its produce request: the pipeline's outbox (one request in flight,
 *     shared with the localized steps), → the bench's handler: produce round trip, broker, the bench's fetch.
 * The pipeline's side is given per step (each batch weighted by its records), the correction's per correction.
 */
import { readFileSync } from 'node:fs';

interface ProbeLine {
  p: string;
  k: 'fetch' | 'commit' | 'batch' | 'correction' | 'send' | 'elu';
  g?: string;
  at?: number;
  ms?: number;
  batches?: number;
  topic?: string;
  partition?: number;
  n?: number;
  firstTs?: number;
  lastTs?: number;
  start?: number;
  end?: number;
  recTs?: number;
  ts?: number | null;
  arrived?: number;
  counts?: Record<string, number>;
  u?: number;
  delayP99?: number;
}

/** p50 / p99 / max of a sample (null when empty). */
export interface Spread {
  count: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

export function spreadOf(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : null);
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.length ? sorted[sorted.length - 1] : null };
}

export interface LatencyDecomposition {
  /** Load generator: step stamped → publish acknowledged (per publish of ~rate/10 steps). */
  loadGeneratorPublishMs: Spread;
  /** Load generator: its produce requests' round trips. */
  loadGeneratorRequestMs: Spread;
  /** Pipeline, steps consumer: steps per partition batch handed to the handler. */
  stepsBatchSize: Spread;
  /** Pipeline, steps consumer: fetch round trips, and the time from one fetch's return to the next's (the fetch cycle). */
  stepsFetchMs: Spread;
  stepsFetchCycleMs: Spread;
  /** Partition batches per fetch (each batch counted to the last fetch that returned before it started). */
  stepsBatchesPerFetch: Spread;
  /** Per step: its produce request → the fetch that returned it. */
  stepRequestToFetchedMs: Spread;
  /** Per step: that fetch → its batch's handler start (waiting for a partition slot). */
  stepFetchedToHandlerMs: Spread;
  /** Per step: its batch's handler, start → end (includes state write-back, outputs and the commit check). */
  stepHandlerMs: Spread;
  /** Per correction: step stamped in the bench → correction decided (its `ts`). */
  stepToDecidedMs: Spread;
  /** Per correction: decided → its produce request (the pipeline's outbox). */
  decidedToRequestMs: Spread;
  /** Per correction: its produce request → the bench's handler (round trip, broker, the bench's fetch). */
  requestToObservedMs: Spread;
  /** Pipeline producer: messages per produce request, and the requests' round trips. */
  pipelineRequestMessages: Spread;
  pipelineRequestMs: Spread;
  /** Event-loop utilization (0..1, per 500 ms) of the pipeline process and of the bench (load generator and observer). */
  pipelineEventLoopUtilization: Spread;
  benchEventLoopUtilization: Spread;
}

/** Expands per-batch figures to per-record ones (each record of a batch counts once), without building huge arrays. */
function weighted(pairs: Array<{ value: number; weight: number }>): Spread {
  const sorted = pairs.filter((p) => p.weight > 0).sort((a, b) => a.value - b.value);
  const total = sorted.reduce((s, p) => s + p.weight, 0);
  const at = (q: number) => {
    if (total === 0) return null;
    const target = Math.min(total - 1, Math.floor(q * total));
    let seen = 0;
    for (const p of sorted) {
      seen += p.weight;
      if (seen > target) return p.value;
    }
    return sorted[sorted.length - 1].value;
  };
  return { count: total, p50: at(0.5), p99: at(0.99), max: sorted.length ? sorted[sorted.length - 1].value : null };
}

export function decompose(
  probeFile: string,
  extra: { stepsTopic: string; stepsGroup: string; publishMs: number[]; stepToDecidedMs: number[]; window: { from: number; to: number } },
): LatencyDecomposition {
  const lines: ProbeLine[] = readFileSync(probeFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ProbeLine);
  const inWindow = (t: number | undefined) => t !== undefined && t >= extra.window.from && t <= extra.window.to;
  const ofPipeline = lines.filter((l) => l.p === 'pipeline');
  const ofBench = lines.filter((l) => l.p === 'bench');
  const fetches = ofPipeline.filter((l) => l.k === 'fetch' && l.g === extra.stepsGroup).sort((a, b) => a.at! - b.at!);
  const batches = ofPipeline.filter((l) => l.k === 'batch' && l.g === extra.stepsGroup && l.topic === extra.stepsTopic && inWindow(l.start));
  const fetchedBefore = (t: number): number | undefined => {
    let lo = 0;
    let hi = fetches.length - 1;
    let found: number | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (fetches[mid].at! <= t) {
        found = fetches[mid].at;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
  const batchesOfFetch = new Map<number, number>();
  const toFetched: Array<{ value: number; weight: number }> = [];
  const toHandler: Array<{ value: number; weight: number }> = [];
  const handler: Array<{ value: number; weight: number }> = [];
  for (const b of batches) {
    const fetched = fetchedBefore(b.start!) ?? b.start!;
    batchesOfFetch.set(fetched, (batchesOfFetch.get(fetched) ?? 0) + 1);
    // A batch's records were requested between firstTs and lastTs: the mean of the two stands for each.
    toFetched.push({ value: fetched - (b.firstTs! + b.lastTs!) / 2, weight: b.n! });
    toHandler.push({ value: b.start! - fetched, weight: b.n! });
    handler.push({ value: b.end! - b.start!, weight: b.n! });
  }
  const windowFetches = fetches.filter((f) => inWindow(f.at));
  const cycles: number[] = [];
  for (let i = 1; i < windowFetches.length; i++) cycles.push(windowFetches[i].at! - windowFetches[i - 1].at!);
  const corrections = ofBench.filter((l) => l.k === 'correction' && l.ts !== null && l.ts !== undefined);
  const pipelineSends = ofPipeline.filter((l) => l.k === 'send' && inWindow(l.start));
  const benchSends = ofBench.filter((l) => l.k === 'send' && inWindow(l.start) && (l.counts?.['wayfinder.steps.v1'] ?? 0) > 0);
  return {
    loadGeneratorPublishMs: spreadOf(extra.publishMs),
    loadGeneratorRequestMs: spreadOf(benchSends.map((s) => s.end! - s.start!)),
    stepsBatchSize: spreadOf(batches.map((b) => b.n!)),
    stepsFetchMs: spreadOf(windowFetches.map((f) => f.ms!)),
    stepsFetchCycleMs: spreadOf(cycles),
    stepsBatchesPerFetch: spreadOf(windowFetches.map((f) => batchesOfFetch.get(f.at!) ?? 0)),
    stepRequestToFetchedMs: weighted(toFetched),
    stepFetchedToHandlerMs: weighted(toHandler),
    stepHandlerMs: weighted(handler),
    stepToDecidedMs: spreadOf(extra.stepToDecidedMs),
    decidedToRequestMs: spreadOf(corrections.map((c) => c.recTs! - c.ts!)),
    requestToObservedMs: spreadOf(corrections.map((c) => c.arrived! - c.recTs!)),
    pipelineRequestMessages: spreadOf(pipelineSends.map((s) => Object.values(s.counts ?? {}).reduce((a, b) => a + b, 0))),
    pipelineRequestMs: spreadOf(pipelineSends.map((s) => s.end! - s.start!)),
    pipelineEventLoopUtilization: spreadOf(ofPipeline.filter((l) => l.k === 'elu' && inWindow(l.at)).map((l) => Math.round(l.u! * 100) / 100)),
    benchEventLoopUtilization: spreadOf(ofBench.filter((l) => l.k === 'elu' && inWindow(l.at)).map((l) => Math.round(l.u! * 100) / 100)),
  };
}
