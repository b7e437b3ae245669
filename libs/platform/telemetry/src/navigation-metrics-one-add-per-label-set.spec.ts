/**
 * A batch's counts reach the SDK as one `add` per distinct label set (the SDK hashes the attributes of
 * every call), with the same totals and labels as one `add` per event would give; histograms still get
 * every value. The meter is a fake that records the calls.
 */
import type { Attributes, Meter, ObservableCallback, ObservableResult } from '@opentelemetry/api';
import type { Deviation, DetectorName, StepEvent } from '@wayfinder/contracts';
import { METRICS } from './metric-names';
import { NavigationMetrics } from './navigation.metrics';

interface Call {
  readonly name: string;
  readonly value: number;
  readonly attributes: Attributes;
}

function recordingMeter(): { meter: Meter; calls: Call[]; gauges: Map<string, ObservableCallback> } {
  const calls: Call[] = [];
  const gauges = new Map<string, ObservableCallback>();
  const instrument = (name: string) => ({
    add: (value: number, attributes: Attributes = {}) => void calls.push({ name, value, attributes }),
    record: (value: number, attributes: Attributes = {}) => void calls.push({ name, value, attributes }),
  });
  const meter = {
    createCounter: instrument,
    createHistogram: instrument,
    createObservableGauge: (name: string) => ({ addCallback: (callback: ObservableCallback) => void gauges.set(name, callback) }),
  } as unknown as Meter;
  return { meter, calls, gauges };
}

const NOW = Date.parse('2026-01-01T00:00:10.000Z');

function step(tenantId: string, seq: number, kind: 'action' | 'observation'): StepEvent {
  const base = { schema: 'wayfinder.step.v1' as const, eventId: `${tenantId}-s${seq}`, tenantId, ts: '2026-01-01T00:00:00.000Z', agentId: 'a1', taskId: 't1', seq };
  return kind === 'action'
    ? { ...base, kind, action: { tool: 'read_file', args: { path: '/x' } } }
    : { ...base, kind, observation: { tool: 'read_file', ok: false, error: 'ENOENT' } };
}

function deviation(of: StepEvent, detector: DetectorName, level: 'warning' | 'critical'): Deviation {
  return {
    schema: 'wayfinder.deviation.v1', eventId: `${of.eventId}:${detector}:${level}`, tenantId: of.tenantId, ts: of.ts, agentId: of.agentId, taskId: of.taskId,
    runId: null, detector, level, count: 3, atSeq: of.seq, loopStartSeq: 0, evidence: {}, message: 'x',
  };
}

function observed(callback: ObservableCallback): Array<{ value: number; attributes: Attributes }> {
  const points: Array<{ value: number; attributes: Attributes }> = [];
  void callback({ observe: (value: number, attributes: Attributes = {}) => void points.push({ value, attributes }) } as ObservableResult);
  return points;
}

describe('NavigationMetrics on a batch', () => {
  it('counts the steps processed with one add per tenant and kind', () => {
    const { meter, calls } = recordingMeter();
    const steps = [step('acme', 1, 'action'), step('acme', 2, 'observation'), step('acme', 3, 'action'), step('globex', 1, 'action'), step('acme', 4, 'action')];
    new NavigationMetrics(meter).stepsProcessed(steps, 'state-localizer');
    expect(calls.filter((c) => c.name === METRICS.stepsProcessed.name)).toEqual([
      { name: METRICS.stepsProcessed.name, value: 3, attributes: { tenant: 'acme', service: 'state-localizer', kind: 'action' } },
      { name: METRICS.stepsProcessed.name, value: 1, attributes: { tenant: 'acme', service: 'state-localizer', kind: 'observation' } },
      { name: METRICS.stepsProcessed.name, value: 1, attributes: { tenant: 'globex', service: 'state-localizer', kind: 'action' } },
    ]);
  });

  it('counts repetitions and deviations once per label set, records every latency, and keeps the repetition rate', () => {
    const { meter, calls, gauges } = recordingMeter();
    const acme = [1, 2, 3, 4].map((seq) => step('acme', seq, 'action'));
    const globex = step('globex', 1, 'observation');
    new NavigationMetrics(meter, { now: () => NOW }).detected(
      [...acme, globex],
      [
        deviation(acme[1], 'error_repeat', 'warning'),
        deviation(acme[1], 'ping_pong', 'warning'),
        deviation(acme[2], 'error_repeat', 'warning'),
        deviation(acme[3], 'drift', 'critical'),
        deviation(globex, 'error_repeat', 'critical'),
      ],
    );
    const named = (name: string) => calls.filter((c) => c.name === name).map(({ value, attributes }) => ({ value, attributes }));
    expect(named(METRICS.repetitions.name)).toEqual([
      { value: 2, attributes: { tenant: 'acme' } },
      { value: 1, attributes: { tenant: 'globex' } },
    ]);
    expect(named(METRICS.deviations.name)).toEqual([
      { value: 2, attributes: { tenant: 'acme', detector: 'error_repeat', level: 'warning' } },
      { value: 1, attributes: { tenant: 'acme', detector: 'ping_pong', level: 'warning' } },
      { value: 1, attributes: { tenant: 'acme', detector: 'drift', level: 'critical' } },
      { value: 1, attributes: { tenant: 'globex', detector: 'error_repeat', level: 'critical' } },
    ]);
    const latencies = named(METRICS.stepToDeviationLatency.name);
    expect(latencies).toHaveLength(5);
    for (const latency of latencies) expect(latency.value).toBe(10);
    expect(latencies.filter((l) => l.attributes['tenant'] === 'acme' && l.attributes['detector'] === 'error_repeat')).toHaveLength(2);
    expect(observed(gauges.get(METRICS.repetitionRate.name)!)).toEqual([
      { value: 2 / 4, attributes: { tenant: 'acme' } },
      { value: 1, attributes: { tenant: 'globex' } },
    ]);
  });

  it('adds nothing for a batch without steps or deviations', () => {
    const { meter, calls } = recordingMeter();
    const metrics = new NavigationMetrics(meter);
    metrics.stepsProcessed([], 'detector-worker');
    metrics.detected([], []);
    metrics.deviations([]);
    expect(calls).toEqual([]);
  });

  it("adds each tenant's detection time and work once per batch, summed over its steps (issue #29)", () => {
    const { meter, calls } = recordingMeter();
    const metrics = new NavigationMetrics(meter);
    metrics.detectionCost('acme', 1_000, 0.002);
    metrics.detectionCost('globex', 40, 0.0001);
    metrics.detectionCost('acme', 16_384, 0.003);
    metrics.detectionCostFlushed('navigator');
    const added = (name: string) => calls.filter((c) => c.name === name).map((c) => ({ tenant: c.attributes.tenant, service: c.attributes.service, value: Number(c.value.toFixed(6)) }));
    expect(added(METRICS.detectionWork.name)).toEqual([
      { tenant: 'acme', service: 'navigator', value: 17_384 },
      { tenant: 'globex', service: 'navigator', value: 40 },
    ]);
    expect(added(METRICS.detectionTime.name)).toEqual([
      { tenant: 'acme', service: 'navigator', value: 0.005 },
      { tenant: 'globex', service: 'navigator', value: 0.0001 },
    ]);
    // Flushed: the next batch starts from zero.
    calls.length = 0;
    metrics.detectionCostFlushed('navigator');
    expect(calls).toEqual([]);
  });
});
