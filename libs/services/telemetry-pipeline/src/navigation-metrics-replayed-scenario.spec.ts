/**
 * Every navigation metric on a replayed scenario through the real service handlers, read back with the
 * SDK's InMemoryMetricExporter: three tenants —
 * - acme: an agent retries a failing read, is corrected, then completes a milestone (self-heal success);
 * - globex: an agent retries and never progresses (self-heal failure), then goes idle (stagnation);
 * - initech: an agent calls a dangerous tool (hard stop: freeze and escalation).
 * Counts are compared with what the handlers actually published, and no label carries an agent id.
 */
import { AggregationTemporality, DataPointType, InMemoryMetricExporter, type MetricData } from '@opentelemetry/sdk-metrics';
import { parseTask } from '@wayfinder/cognitive-map';
import { InProcessBus } from '@wayfinder/bus';
import { LOOP_FAMILY, type CognitiveMap } from '@wayfinder/contracts';
import { DurableAgentStates, InMemoryAgentStateStore } from '@wayfinder/service-core';
import { METRICS, monitorDeadLetters, navigationMetrics, startTelemetry, type Telemetry } from '@wayfinder/telemetry';
import { routedHandlers, stepWriter, taskSpec, type RoutedHandlers } from './routed-handlers';

const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
let telemetry: Telemetry;
let pipeline: RoutedHandlers;
let metrics: Map<string, MetricData>;
const AGENT_IDS = ['agent-acme-1', 'agent-globex-1', 'agent-initech-1'];
const STEP_AGE_MS = 2_000;

function mapOf(tenantId: string): CognitiveMap {
  const parsed = parseTask(taskSpec(tenantId, 'report'));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function points(name: string): Array<{ attributes: Record<string, unknown>; value: unknown }> {
  const metric = metrics.get(name);
  if (!metric) throw new Error(`metric ${name} was not exported; got ${[...metrics.keys()].join(', ')}`);
  return metric.dataPoints.map((p) => ({ attributes: { ...p.attributes }, value: p.value }));
}

function valueAt(name: string, attributes: Record<string, unknown>): number {
  const matching = points(name).filter((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v));
  return matching.reduce((sum, p) => sum + (typeof p.value === 'number' ? p.value : (p.value as { count: number }).count), 0);
}

beforeAll(async () => {
  telemetry = startTelemetry({ serviceName: 'wayfinder-test', env: {}, metricExporters: [exporter] });
  pipeline = routedHandlers();
  for (const tenant of ['acme', 'globex', 'initech']) await pipeline.task(mapOf(tenant));

  const acme = stepWriter('acme', AGENT_IDS[0], 'report', STEP_AGE_MS);
  for (let i = 0; i < 6; i++) for (const step of acme.failingRead(i)) await pipeline.step(step);
  const done = acme.milestoneDone(mapOf('acme').milestones[0].id);
  await pipeline.step(done);
  await pipeline.step(done); // redelivered: counted as a duplicate, not localized again

  const globex = stepWriter('globex', AGENT_IDS[1], 'report', STEP_AGE_MS);
  for (let i = 0; i < 12; i++) for (const step of globex.failingRead(i)) await pipeline.step(step);
  // Idle far past 10× the expected step time: the stagnation timer fires.
  await pipeline.detector.tick(Date.now() + 60_000);

  const initech = stepWriter('initech', AGENT_IDS[2], 'report', STEP_AGE_MS);
  await pipeline.step(initech.action('delete_records', { table: 'customers' }));

  // The DLQ monitor on a bus where an invalid step is dead-lettered by the bus itself.
  const bus = new InProcessBus({ retry: { maxAttempts: 1, initialBackoffMs: 1, maxBackoffMs: 1 } });
  bus.subscribe('wayfinder.steps.v1', async () => undefined, { groupId: 'localizer' });
  monitorDeadLetters(bus, navigationMetrics(), { topics: ['wayfinder.steps.v1'] });
  await bus.start();
  await bus.publishRaw('wayfinder.steps.v1', 'acme:x', '{"not":"a step"}');
  await bus.publishRaw('wayfinder.steps.v1', 'acme:x', 'not json');
  for (let i = 0; i < 200 && (await exportedTotal('wayfinder.dlq.messages')) < 2; i++) await new Promise((r) => setTimeout(r, 10));
  await bus.stop();

  // A versioned state write that finds a newer state: another instance wrote the agent in between.
  const store = new InMemoryAgentStateStore();
  const holder = { exportAgentState: () => new Uint8Array([1]), importAgentState: () => undefined, forgetAgent: () => undefined };
  const stale = new DurableAgentStates(holder, store, { onConflict: (agents) => agents.forEach((a) => navigationMetrics().stateConflict(a.tenantId, 'detector-worker')) });
  const agent = { tenantId: 'acme', agentId: AGENT_IDS[0] };
  await stale.run([agent], () => undefined);
  await stale.run([agent], () => store.save([{ ...agent, state: new Uint8Array([2]) }])).catch(() => undefined);

  navigationMetrics().observeConsumerLag(() => [{ group: 'wayfinder.detector-worker', topic: 'wayfinder.localized.v1', lag: 42 }]);
  // An operator marks one of acme's error_repeat deviations a false positive (the operations module does this).
  const marked = pipeline.published.deviations.filter((d) => d.tenantId === 'acme' && d.detector === 'error_repeat').length;
  navigationMetrics().falsePositiveMarked('acme', 'error_repeat');
  navigationMetrics().falsePositiveShares('acme', [{ detector: 'error_repeat', deviations: marked, falsePositiveShare: 1 / marked }]);
  await telemetry.flush();
  const latest = exporter.getMetrics().at(-1)!;
  metrics = new Map(latest.scopeMetrics.flatMap((s) => s.metrics).map((m) => [m.descriptor.name, m]));
});

afterAll(() => telemetry.shutdown());

/** Exports now and sums a counter's points (used only to wait for the asynchronous DLQ path). */
async function exportedTotal(name: string): Promise<number> {
  await telemetry.flush();
  const metric = exporter.getMetrics().at(-1)?.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  return metric ? metric.dataPoints.reduce((sum, p) => sum + (p.value as number), 0) : 0;
}

describe('navigation metrics on a replayed scenario', () => {
  it('counts the steps each service processed, per tenant and kind', () => {
    // The localizer read the redelivered step too (and counted it as a duplicate); nothing downstream saw it twice.
    expect(valueAt('wayfinder.steps.processed', { tenant: 'acme', service: 'state-localizer' })).toBe(14);
    expect(valueAt('wayfinder.steps.processed', { tenant: 'acme', service: 'detector-worker' })).toBe(13);
    expect(valueAt('wayfinder.steps.processed', { tenant: 'acme', service: 'correction-engine', kind: 'milestone' })).toBe(1);
    expect(valueAt('wayfinder.steps.processed', { tenant: 'globex', service: 'state-localizer', kind: 'observation' })).toBe(12);
  });

  it('counts deviations by detector and level exactly as published', () => {
    const published = pipeline.published.deviations;
    expect(published.some((d) => d.tenantId === 'acme' && d.detector === 'error_repeat')).toBe(true);
    for (const tenant of ['acme', 'globex', 'initech']) {
      for (const d of published.filter((x) => x.tenantId === tenant)) {
        const expected = published.filter((x) => x.tenantId === tenant && x.detector === d.detector && x.level === d.level).length;
        expect(valueAt('wayfinder.deviations', { tenant, detector: d.detector, level: d.level })).toBe(expected);
      }
    }
    expect(valueAt('wayfinder.deviations', {})).toBe(published.length);
  });

  it('counts corrections by severity and action exactly as published, and escalations', () => {
    const published = pipeline.published.corrections;
    expect(published.length).toBeGreaterThan(0);
    for (const c of published) {
      const expected = published.filter((x) => x.tenantId === c.tenantId && x.severity === c.severity && x.action === c.action).length;
      expect(valueAt('wayfinder.corrections', { tenant: c.tenantId, severity: c.severity, action: c.action })).toBe(expected);
    }
    expect(valueAt('wayfinder.corrections', { tenant: 'initech', severity: 'critical', action: 'freeze' })).toBe(1);
    const escalations = pipeline.published.escalations;
    expect(escalations.map((e) => e.tenantId)).toContain('initech');
    for (const tenant of ['acme', 'globex', 'initech']) {
      expect(valueAt('wayfinder.escalations', { tenant })).toBe(escalations.filter((e) => e.tenantId === tenant).length);
    }
  });

  it('reports self-heal successes, failures and the rate per tenant', () => {
    const engine = pipeline.corrections.engine.stats();
    const successes = valueAt('wayfinder.self_heal.successes', {});
    const failures = valueAt('wayfinder.self_heal.failures', {});
    expect(successes + failures).toBe(engine.selfHeals + engine.selfHealFailures);
    expect(successes).toBe(engine.selfHeals);
    // acme completed a milestone after its last correction; globex never progressed.
    expect(valueAt('wayfinder.self_heal.successes', { tenant: 'acme' })).toBe(1);
    expect(valueAt('wayfinder.self_heal.successes', { tenant: 'globex' })).toBe(0);
    expect(valueAt('wayfinder.self_heal.failures', { tenant: 'globex' })).toBeGreaterThanOrEqual(1);
    for (const tenant of ['acme', 'globex']) {
      const s = valueAt('wayfinder.self_heal.successes', { tenant });
      const f = valueAt('wayfinder.self_heal.failures', { tenant });
      expect(valueAt('wayfinder.self_heal.rate', { tenant })).toBeCloseTo(s / (s + f), 10);
    }
    expect(valueAt('wayfinder.self_heal.rate', { tenant: 'globex' })).toBe(0);
  });

  it('reports the repetition rate: steps with a loop-family deviation over steps scanned', () => {
    const loopSteps = new Set(
      pipeline.published.deviations.filter((d) => d.tenantId === 'globex' && LOOP_FAMILY.includes(d.detector) && d.detector !== 'stagnation').map((d) => d.atSeq),
    );
    expect(loopSteps.size).toBeGreaterThan(0);
    expect(valueAt('wayfinder.repetitions', { tenant: 'globex' })).toBe(loopSteps.size);
    expect(valueAt('wayfinder.repetition.rate', { tenant: 'globex' })).toBeCloseTo(loopSteps.size / 24, 10);
  });

  it('records the stagnation duration from the idle time of the timer deviation', () => {
    const stagnation = pipeline.published.deviations.filter((d) => d.detector === 'stagnation' && d.evidence['kind'] === 'time');
    expect(stagnation.length).toBeGreaterThan(0);
    const point = points('wayfinder.stagnation.duration').filter((p) => p.attributes['tenant'] === 'globex');
    const recorded = point.reduce((sum, p) => sum + (p.value as { count: number }).count, 0);
    expect(recorded).toBe(stagnation.filter((d) => d.tenantId === 'globex').length);
    const sum = point.reduce((s, p) => s + ((p.value as { sum: number }).sum ?? 0), 0);
    const idle = stagnation.filter((d) => d.tenantId === 'globex').reduce((s, d) => s + (d.evidence['idleMs'] as number) / 1000, 0);
    expect(sum).toBeCloseTo(idle, 6);
  });

  it('reports milestones completed and the completion rate over the milestones of the maps', () => {
    expect(valueAt('wayfinder.milestones.completed', { tenant: 'acme', method: 'signal' })).toBe(1);
    expect(valueAt('wayfinder.milestone.completion.rate', { tenant: 'acme' })).toBeCloseTo(1 / mapOf('acme').milestones.length, 10);
    expect(valueAt('wayfinder.milestone.completion.rate', { tenant: 'globex' })).toBe(0);
  });

  it('records step → deviation and step → correction latencies from the step time', () => {
    // Deviations of the stagnation timer have no step, so they (and their corrections) have no latency.
    const onSteps = pipeline.published.deviations.filter((d) => d.tenantId === 'acme' && d.evidence['kind'] !== 'time');
    expect(onSteps.length).toBeGreaterThan(0);
    expect(valueAt('wayfinder.step_to_deviation.latency', { tenant: 'acme' })).toBe(onSteps.length);
    const ids = new Set(onSteps.map((d) => d.eventId));
    const acmeCorrections = pipeline.published.corrections.filter((c) => c.tenantId === 'acme' && c.deviationIds.some((id) => ids.has(id)));
    expect(acmeCorrections.length).toBeGreaterThan(0);
    expect(valueAt('wayfinder.step_to_correction.latency', { tenant: 'acme' })).toBe(acmeCorrections.length);
    for (const p of points('wayfinder.step_to_correction.latency').filter((x) => x.attributes['tenant'] === 'acme')) {
      const h = p.value as { min: number; count: number };
      // The steps were stamped STEP_AGE_MS before they were replayed.
      expect(h.min).toBeGreaterThanOrEqual(STEP_AGE_MS / 1000);
    }
  });

  it('counts dead-lettered messages per source topic and reports consumer lag', () => {
    expect(valueAt('wayfinder.dlq.messages', { topic: 'wayfinder.steps.v1' })).toBe(2);
    expect(points('wayfinder.consumer.lag')).toEqual([{ attributes: { service: 'wayfinder.detector-worker', topic: 'wayfinder.localized.v1' }, value: 42 }]);
  });

  it('counts a redelivered step as a duplicate, by tenant and reason', () => {
    expect(valueAt('wayfinder.steps.duplicates', { tenant: 'acme', service: 'state-localizer', reason: 'stale_seq' })).toBe(1);
  });

  it('counts a versioned state write refused for a newer state, by tenant and service', () => {
    expect(valueAt('wayfinder.state.conflicts', { tenant: 'acme', service: 'detector-worker' })).toBe(1);
  });

  it('exports every metric of the METRICS table (which the alerts are checked against) with its unit, type and labels', () => {
    const types = { counter: DataPointType.SUM, gauge: DataPointType.GAUGE, histogram: DataPointType.HISTOGRAM };
    for (const spec of Object.values(METRICS)) {
      const metric = metrics.get(spec.name);
      expect({ name: spec.name, exported: metric !== undefined }).toEqual({ name: spec.name, exported: true });
      expect({ name: spec.name, unit: metric!.descriptor.unit, type: metric!.dataPointType }).toEqual({ name: spec.name, unit: spec.unit, type: types[spec.kind] });
      for (const point of metric!.dataPoints) for (const key of Object.keys(point.attributes)) expect(spec.attributes).toContain(key);
    }
  });

  it('never labels a metric with an agent id', () => {
    for (const metric of metrics.values()) {
      for (const point of metric.dataPoints) {
        expect(Object.keys(point.attributes).filter((k) => /agent/i.test(k))).toEqual([]);
        for (const value of Object.values(point.attributes)) expect(AGENT_IDS).not.toContain(value);
      }
      if (metric.dataPointType === DataPointType.HISTOGRAM) expect(metric.descriptor.unit).toBe('s');
    }
  });
});
