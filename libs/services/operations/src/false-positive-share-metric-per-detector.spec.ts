// The false-positive share as an OpenTelemetry metric per detector: a mark counts once
// (`wayfinder.false_positives{tenant,detector}`) and the gauge `wayfinder.false_positive.share` reports,
// per tenant and detector, marked over retained deviations; new deviations lower it on the next refresh;
// a tenant nobody marked reports nothing. The meter is a fake that records the calls.
import type { Attributes, Meter, ObservableCallback, ObservableResult } from '@opentelemetry/api';
import { InMemoryHistoryStore, type FalsePositiveRecord } from '@wayfinder/history';
import { deviationRecord, T0 } from '@wayfinder/history/testing';
import { METRICS, NavigationMetrics, prometheusName } from '@wayfinder/telemetry';
import { FalsePositiveShares } from './false-positive-shares';

function recordingMeter() {
  const adds: Array<{ name: string; value: number; attributes: Attributes }> = [];
  const gauges = new Map<string, ObservableCallback>();
  const instrument = (name: string) => ({ add: (value: number, attributes: Attributes = {}) => void adds.push({ name, value, attributes }), record: () => undefined });
  const meter = {
    createCounter: instrument,
    createHistogram: instrument,
    createObservableGauge: (name: string) => ({ addCallback: (callback: ObservableCallback) => void gauges.set(name, callback) }),
  } as unknown as Meter;
  const observe = (name: string) => {
    const points: Array<{ value: number; attributes: Attributes }> = [];
    void gauges.get(name)!({ observe: (value: number, attributes: Attributes = {}) => void points.push({ value, attributes }) } as ObservableResult);
    return points;
  };
  return { meter, adds, observe };
}

const mark = (tenantId: string, agentId: string, n: number): FalsePositiveRecord => ({
  id: `false-positive:d-${agentId}-${n}`, kind: 'false-positive', tenantId, agentId, taskId: 'task-1', runId: null, ts: new Date(T0 + 5_000).toISOString(),
  deviationId: `d-${agentId}-${n}`, detector: 'generic_repeat', tool: 'search', argsHash: 'abc', until: new Date(T0 + 3_600_000).toISOString(),
});

describe('the false-positive share per detector', () => {
  it('is exported under the Prometheus names of the naming rules', () => {
    expect(prometheusName(METRICS.falsePositiveShare)).toBe('wayfinder_false_positive_share_ratio');
    expect(prometheusName(METRICS.falsePositives)).toBe('wayfinder_false_positives_total');
  });

  it('counts each mark and reports marked over retained deviations per tenant and detector', async () => {
    const { meter, adds, observe } = recordingMeter();
    const metrics = new NavigationMetrics(meter);
    const store = new InMemoryHistoryStore({ now: () => T0 + 60_000 });
    const acme = { tenantId: 'acme', agentId: 'a1' };
    const globex = { tenantId: 'globex', agentId: 'a1' };
    await store.append([
      ...[1, 2, 3, 4].map((n) => deviationRecord(acme, n, T0 + n)),
      ...[5, 6].map((n) => deviationRecord(acme, n, T0 + n, { detector: 'stagnation' })),
      ...[1, 2, 3].map((n) => deviationRecord(globex, n, T0 + n)),
    ]);
    const shares = new FalsePositiveShares(store, metrics);
    expect(observe(METRICS.falsePositiveShare.name)).toEqual([]);

    await store.append([mark('acme', 'a1', 2)]);
    await shares.marked('acme', 'generic_repeat');
    expect(adds.filter((a) => a.name === METRICS.falsePositives.name)).toEqual([{ name: 'wayfinder.false_positives', value: 1, attributes: { tenant: 'acme', detector: 'generic_repeat' } }]);
    expect(observe(METRICS.falsePositiveShare.name)).toEqual([
      { value: 0.25, attributes: { tenant: 'acme', detector: 'generic_repeat' } },
      { value: 0, attributes: { tenant: 'acme', detector: 'stagnation' } },
    ]);

    // One more generic_repeat deviation: the next refresh lowers the share to 1/5.
    await store.append([deviationRecord(acme, 7, T0 + 7)]);
    await shares.refresh('acme');
    expect(observe(METRICS.falsePositiveShare.name)).toContainEqual({ value: 0.2, attributes: { tenant: 'acme', detector: 'generic_repeat' } });
    expect(observe(METRICS.falsePositiveShare.name).some((p) => p.attributes.tenant === 'globex')).toBe(false);
  });
});
