/**
 * The navigation metrics of DESIGN §8 as one object the service handlers call: instruments are created
 * once from a Meter (creating them per event would cost a lookup each time), and every method takes the
 * domain event it reports on, so a handler adds one line per outcome. Labels are tenant, service,
 * detector, level, severity, action, method, topic — never the agent id (spans carry that instead).
 *
 * The three rates (repetition, milestone completion, self-heal) are observable gauges computed from
 * what this process counted since it started; across processes and windows, compute them in PromQL from
 * the counters (deploy/prometheus/alerts.yml does).
 */
import { metrics, type Attributes, type Counter, type Histogram, type Meter, type MeterProvider, type ObservableResult } from '@opentelemetry/api';
import { LOOP_FAMILY, type Correction, type Deviation, type Escalation, type LocalizedStep, type StepEvent } from '@wayfinder/contracts';
import { LATENCY_BUCKETS_S, METRICS, STAGNATION_BUCKETS_S } from './metric-names';

export const METER_NAME = '@wayfinder/telemetry';

/** What the correction engine counts (CorrectionEngine.stats() has this shape). */
export interface SelfHealCounts {
  readonly selfHeals: number;
  readonly selfHealFailures: number;
}

/** Where a lag reading comes from: one consumer group on one topic. */
export interface LagReading {
  readonly group: string;
  readonly topic: string;
  readonly lag: number;
}

export interface NavigationMetricsOptions {
  /** Wall clock for latencies (ms since epoch); tests pin it. */
  readonly now?: () => number;
  /** Agents whose milestone progress is remembered for the completion rate (oldest forgotten first). */
  readonly maxTrackedAgents?: number;
}

const LOOP_DETECTORS = new Set<string>(LOOP_FAMILY);

interface Ratio {
  hits: number;
  total: number;
}

export class NavigationMetrics {
  private readonly now: () => number;
  private readonly maxTrackedAgents: number;
  private readonly stepsProcessed: Counter;
  private readonly deviations: Counter;
  private readonly repetitions: Counter;
  private readonly stagnationDuration: Histogram;
  private readonly milestonesCompleted: Counter;
  private readonly corrections: Counter;
  private readonly selfHealSuccesses: Counter;
  private readonly selfHealFailures: Counter;
  private readonly escalations: Counter;
  private readonly stepToDeviation: Histogram;
  private readonly stepToCorrection: Histogram;
  private readonly dlqMessages: Counter;
  private readonly repetitionByTenant = new Map<string, Ratio>();
  private readonly completionByTenant = new Map<string, Ratio>();
  private readonly selfHealByTenant = new Map<string, Ratio>();
  /** Completed milestone count per tenant/task/agent, to count only newly completed ones. */
  private readonly completedByAgent = new Map<string, number>();
  private readonly lagSources: Array<() => readonly LagReading[]> = [];

  constructor(meter: Meter, options: NavigationMetricsOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxTrackedAgents = options.maxTrackedAgents ?? 100_000;
    const counter = (spec: (typeof METRICS)[keyof typeof METRICS]) => meter.createCounter(spec.name, { unit: spec.unit, description: spec.description });
    const histogram = (spec: (typeof METRICS)[keyof typeof METRICS], buckets: number[]) =>
      meter.createHistogram(spec.name, { unit: spec.unit, description: spec.description, advice: { explicitBucketBoundaries: buckets } });
    this.stepsProcessed = counter(METRICS.stepsProcessed);
    this.deviations = counter(METRICS.deviations);
    this.repetitions = counter(METRICS.repetitions);
    this.stagnationDuration = histogram(METRICS.stagnationDuration, STAGNATION_BUCKETS_S);
    this.milestonesCompleted = counter(METRICS.milestonesCompleted);
    this.corrections = counter(METRICS.corrections);
    this.selfHealSuccesses = counter(METRICS.selfHealSuccesses);
    this.selfHealFailures = counter(METRICS.selfHealFailures);
    this.escalations = counter(METRICS.escalations);
    this.stepToDeviation = histogram(METRICS.stepToDeviationLatency, LATENCY_BUCKETS_S);
    this.stepToCorrection = histogram(METRICS.stepToCorrectionLatency, LATENCY_BUCKETS_S);
    this.dlqMessages = counter(METRICS.dlqMessages);

    const gauge = (spec: (typeof METRICS)[keyof typeof METRICS], observe: (result: ObservableResult) => void) =>
      meter.createObservableGauge(spec.name, { unit: spec.unit, description: spec.description }).addCallback(observe);
    gauge(METRICS.repetitionRate, (result) => observeRatios(result, this.repetitionByTenant));
    gauge(METRICS.milestoneCompletionRate, (result) => observeRatios(result, this.completionByTenant));
    gauge(METRICS.selfHealRate, (result) => observeRatios(result, this.selfHealByTenant));
    gauge(METRICS.consumerLag, (result) => {
      for (const source of this.lagSources) {
        for (const reading of source()) result.observe(reading.lag, { service: reading.group, topic: reading.topic });
      }
    });
  }

  /** A step handled by `service` (every service that consumes steps or localized steps reports them). */
  stepProcessed(step: StepEvent, service: string): void {
    this.stepsProcessed.add(1, { tenant: step.tenantId, service, kind: step.kind });
  }

  /** A localized step: milestones newly completed, and the planned milestones of a newly seen agent. */
  localized(localized: LocalizedStep, milestonesOnMap: number): void {
    const { step, position } = localized;
    if (position.method === 'unknown') return;
    const key = `${step.tenantId}\u0000${step.taskId}\u0000${step.agentId}`;
    const ratio = ratioOf(this.completionByTenant, step.tenantId);
    const before = this.completedByAgent.get(key);
    if (before === undefined) {
      ratio.total += milestonesOnMap;
      if (this.completedByAgent.size >= this.maxTrackedAgents) {
        const oldest = this.completedByAgent.keys().next();
        if (!oldest.done) this.completedByAgent.delete(oldest.value);
      }
    }
    const completed = position.completed.length;
    const added = completed - (before ?? 0);
    if (added > 0) {
      ratio.hits += added;
      this.milestonesCompleted.add(added, { tenant: step.tenantId, method: position.method });
    }
    if (before === undefined || added > 0) this.completedByAgent.set(key, Math.max(completed, before ?? 0));
  }

  /** The detection outcome of one step: counts the step as scanned and, if it repeated, as a repetition. */
  detected(step: StepEvent, deviations: readonly Deviation[]): void {
    const ratio = ratioOf(this.repetitionByTenant, step.tenantId);
    ratio.total += 1;
    if (deviations.some((d) => LOOP_DETECTORS.has(d.detector))) {
      ratio.hits += 1;
      this.repetitions.add(1, { tenant: step.tenantId });
    }
    for (const deviation of deviations) this.deviation(deviation);
  }

  /** One deviation (from a step or from the stagnation timer). */
  deviation(deviation: Deviation): void {
    this.deviations.add(1, { tenant: deviation.tenantId, detector: deviation.detector, level: deviation.level });
    const stepTs = stepTimeOf(deviation);
    const latency = stepTs === undefined ? undefined : secondsSince(stepTs, this.now());
    if (latency !== undefined) this.stepToDeviation.record(latency, { tenant: deviation.tenantId, detector: deviation.detector });
    if (deviation.detector === 'stagnation') {
      const idleMs = deviation.evidence['idleMs'];
      if (typeof idleMs === 'number' && idleMs >= 0) this.stagnationDuration.record(idleMs / 1000, { tenant: deviation.tenantId, level: deviation.level });
    }
  }

  /**
   * A correction published, with its cause: the deviation (whose ts is its step's) or the step's time.
   * Corrections of timer deviations (stagnation by wall clock) have no step, hence no latency.
   */
  correction(correction: Correction, cause: Deviation | string | number): void {
    this.corrections.add(1, { tenant: correction.tenantId, severity: correction.severity, action: correction.action });
    const stepTs = typeof cause === 'object' ? stepTimeOf(cause) : cause;
    const latency = stepTs === undefined ? undefined : secondsSince(stepTs, this.now());
    if (latency !== undefined) this.stepToCorrection.record(latency, { tenant: correction.tenantId, severity: correction.severity });
  }

  escalation(escalation: Escalation): void {
    this.escalations.add(1, { tenant: escalation.tenantId });
  }

  /** Self-heal outcomes decided for a tenant. */
  selfHeal(tenantId: string, healed: number, failed: number): void {
    if (healed <= 0 && failed <= 0) return;
    const ratio = ratioOf(this.selfHealByTenant, tenantId);
    // Both counters get a point (possibly +0) so that a tenant with only failures still has a successes
    // series: the self-heal rate in PromQL divides one by the sum of both.
    this.selfHealSuccesses.add(Math.max(0, healed), { tenant: tenantId });
    this.selfHealFailures.add(Math.max(0, failed), { tenant: tenantId });
    ratio.hits += Math.max(0, healed);
    ratio.total += Math.max(0, healed) + Math.max(0, failed);
  }

  /**
   * Self-heal outcomes as the difference of the engine's counters around a call for one tenant's event
   * (the ladder stage does not hand the outcomes out; the engine counts them).
   */
  selfHealBetween(tenantId: string, before: SelfHealCounts, after: SelfHealCounts): void {
    this.selfHeal(tenantId, after.selfHeals - before.selfHeals, after.selfHealFailures - before.selfHealFailures);
  }

  /** A message dead-lettered from `topic` (the source topic, without `.dlq`). */
  dlqMessage(topic: string, count = 1): void {
    this.dlqMessages.add(count, { topic });
  }

  /** Registers where consumer lag is read from at each collection (e.g. KafkaLagMonitor.readings). */
  observeConsumerLag(source: () => readonly LagReading[]): void {
    this.lagSources.push(source);
  }
}

function ratioOf(ratios: Map<string, Ratio>, tenant: string): Ratio {
  let ratio = ratios.get(tenant);
  if (!ratio) {
    ratio = { hits: 0, total: 0 };
    ratios.set(tenant, ratio);
  }
  return ratio;
}

function observeRatios(result: ObservableResult, ratios: Map<string, Ratio>): void {
  for (const [tenant, { hits, total }] of ratios) if (total > 0) result.observe(hits / total, { tenant } satisfies Attributes);
}

/** A deviation raised on a step carries the step's ts; one raised by the stagnation timer has no step. */
function stepTimeOf(deviation: Deviation): string | undefined {
  return deviation.detector === 'stagnation' && deviation.evidence['kind'] === 'time' ? undefined : deviation.ts;
}

function secondsSince(ts: string | number, nowMs: number): number | undefined {
  const ms = typeof ts === 'number' ? ts : Date.parse(ts);
  if (!Number.isFinite(ms)) return undefined;
  return Math.max(0, nowMs - ms) / 1000;
}

const byProvider = new WeakMap<MeterProvider, NavigationMetrics>();

/**
 * The NavigationMetrics of the global MeterProvider (the one `startTelemetry` registered), created on
 * first use. Without a started SDK the global provider is a no-op and so is every call. Call it after
 * `startTelemetry` (handlers are constructed by Nest after the bootstrap started telemetry).
 */
export function navigationMetrics(): NavigationMetrics {
  const provider = metrics.getMeterProvider();
  let instance = byProvider.get(provider);
  if (!instance) {
    instance = new NavigationMetrics(provider.getMeter(METER_NAME));
    byProvider.set(provider, instance);
  }
  return instance;
}
