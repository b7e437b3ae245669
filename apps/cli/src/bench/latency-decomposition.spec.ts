// `bench pipeline --decompose`: the stages come out of the probe's lines as documented — per step for the
// pipeline's side (each batch weighted by its records), per correction for its way out — and lines of
// other groups, of the other process or outside the load window are left out.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decompose, spreadOf } from './latency-decomposition';

const group = 'p.bench.state-localizer';
const topic = 'p.wayfinder.steps.v1';

function probeFile(lines: object[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'decompose-')), 'probe.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

describe('latency decomposition', () => {
  it('splits request → fetched → handler per step, and a correction decided → request → observed', () => {
    const file = probeFile([
      { p: 'pipeline', k: 'fetch', g: group, at: 1_000, ms: 5, batches: 0 },
      // 300 steps requested at 900..960 (mean 930): fetched 70 ms later, handler from 1,010 to 1,110.
      { p: 'pipeline', k: 'batch', g: group, topic, partition: 0, n: 300, firstTs: 900, lastTs: 960, start: 1_010, end: 1_110 },
      { p: 'pipeline', k: 'fetch', g: group, at: 1_200, ms: 7, batches: 0 },
      // 100 steps requested at 1,150: fetched 50 ms later, waited 0 for a worker, handled in 400 ms.
      { p: 'pipeline', k: 'batch', g: group, topic, partition: 1, n: 100, firstTs: 1_150, lastTs: 1_150, start: 1_200, end: 1_600 },
      // Another group, another process, and a batch outside the window: not counted.
      { p: 'pipeline', k: 'batch', g: 'p.bench.memory-service', topic, partition: 0, n: 5_000, firstTs: 0, lastTs: 0, start: 1_100, end: 9_000 },
      { p: 'bench', k: 'batch', g: group, topic, partition: 0, n: 5_000, firstTs: 0, lastTs: 0, start: 1_100, end: 9_000 },
      { p: 'pipeline', k: 'batch', g: group, topic, partition: 0, n: 5_000, firstTs: 0, lastTs: 0, start: 50_000, end: 60_000 },
      { p: 'pipeline', k: 'send', start: 1_100, end: 1_130, counts: { 'wayfinder.localized.v1': 300, 'wayfinder.corrections.v1': 1 } },
      { p: 'bench', k: 'send', start: 1_000, end: 1_020, counts: { 'wayfinder.steps.v1': 500 } },
      { p: 'bench', k: 'correction', g: 'p.bench-observer', recTs: 1_090, ts: 1_080, arrived: 1_140 },
      { p: 'pipeline', k: 'elu', at: 1_500, u: 0.97 },
    ]);

    const d = decompose(file, { stepsTopic: topic, stepsGroup: group, publishMs: [12, 40], stepToDecidedMs: [150], window: { from: 500, to: 10_000 } });

    expect(d.stepsBatchSize).toEqual({ count: 2, p50: 300, p99: 300, max: 300 });
    expect(d.stepRequestToFetchedMs).toEqual({ count: 400, p50: 70, p99: 70, max: 70 });
    expect(d.stepFetchedToHandlerMs).toEqual({ count: 400, p50: 10, p99: 10, max: 10 });
    // 300 of 400 steps were in the 100 ms batch: the median step's handler took 100 ms, the 99th percentile 400.
    expect(d.stepHandlerMs).toEqual({ count: 400, p50: 100, p99: 400, max: 400 });
    expect(d.stepsFetchCycleMs).toEqual({ count: 1, p50: 200, p99: 200, max: 200 });
    expect(d.stepsBatchesPerFetch.max).toBe(1);
    expect(d.decidedToRequestMs).toEqual({ count: 1, p50: 10, p99: 10, max: 10 });
    expect(d.requestToObservedMs).toEqual({ count: 1, p50: 50, p99: 50, max: 50 });
    expect(d.pipelineRequestMessages).toEqual({ count: 1, p50: 301, p99: 301, max: 301 });
    expect(d.loadGeneratorRequestMs.p50).toBe(20);
    expect(d.loadGeneratorPublishMs).toEqual({ count: 2, p50: 40, p99: 40, max: 40 });
    expect(d.pipelineEventLoopUtilization.p50).toBe(0.97);
    expect(d.benchEventLoopUtilization.count).toBe(0);
  });

  it('gives nulls for an empty sample', () => {
    expect(spreadOf([])).toEqual({ count: 0, p50: null, p99: null, max: null });
  });
});
