/**
 * The navigation metrics of DESIGN §8 as one object the service handlers call: instruments are created
 * once from a Meter (creating them per event would cost a lookup each time), and every method takes the
 * domain events it reports on, so a handler adds one line per outcome. Labels are tenant, service,
 * detector, level, severity, action, method, topic — never the agent id (spans carry that instead).
 *
 * What happens to every step (processed, scanned by the detectors) is reported per batch: the SDK hashes
 * the attributes of every `add`, so a batch's counts are summed here first, one `add` per distinct label
 * set. Histograms still record every value. On the no-op meter (SDK not started) every call returns at
 * once: nothing would read the counts or the rates.
 *
 * The three rates (repetition, milestone completion, self-heal) are observable gauges computed from
 * what this process counted since it started; across processes and windows, compute them in PromQL from
 * the counters (deploy/prometheus/alerts.yml does).
 */
import { createNoopMeter, metrics, type Attributes, type Counter, type Histogram, type Meter, type MeterProvider, type ObservableResult } from '@opentelemetry/api';
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
  private readonly enabled: boolean;
  private readonly steps: Counter;
  private readonly stepDuplicates: Counter;
  private readonly stateConflicts: Counter;
  private readonly deviationCount: Counter;
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
  private readonly falsePositives: Counter;
  private readonly detectionTime: Counter;
  private readonly detectionWork: Counter;
  /** Per tenant, the detection cost of the steps since the last `detectionCostFlushed` (summed: one `add` per tenant per batch). */
  private readonly detectionCosts = new Map<string, { seconds: number; work: number }>();
  /** Per tenant, per detector: the share of its retained deviations marked false positives. */
  private readonly falsePositiveShareByTenant = new Map<string, ReadonlyMap<string, number>>();
  private readonly repetitionByTenant = new Map<string, Ratio>();
  private readonly completionByTenant = new Map<string, Ratio>();
  private readonly selfHealByTenant = new Map<string, Ratio>();
  /** Completed milestone count per tenant/task/agent, to count only newly completed ones. */
  private readonly completedByAgent = new Map<string, number>();
  private readonly lagSources: Array<() => readonly LagReading[]> = [];

  constructor(meter: Meter, options: NavigationMetricsOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxTrackedAgents = options.maxTrackedAgents ?? 100_000;
    this.enabled = meter !== createNoopMeter();
    const counter = (spec: (typeof METRICS)[keyof typeof METRICS]) => meter.createCounter(spec.name, { unit: spec.unit, description: spec.description });
    const histogram = (spec: (typeof METRICS)[keyof typeof METRICS], buckets: number[]) =>
      meter.createHistogram(spec.name, { unit: spec.unit, description: spec.description, advice: { explicitBucketBoundaries: buckets } });
    this.steps = counter(METRICS.stepsProcessed);
    this.stepDuplicates = counter(METRICS.stepDuplicates);
    this.stateConflicts = counter(METRICS.stateConflicts);
    this.deviationCount = counter(METRICS.deviations);
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
    this.falsePositives = counter(METRICS.falsePositives);
    this.detectionTime = counter(METRICS.detectionTime);
    this.detectionWork = counter(METRICS.detectionWork);

    const gauge = (spec: (typeof METRICS)[keyof typeof METRICS], observe: (result: ObservableResult) => void) =>
      meter.createObservableGauge(spec.name, { unit: spec.unit, description: spec.description }).addCallback(observe);
    gauge(METRICS.repetitionRate, (result) => observeRatios(result, this.repetitionByTenant));
    gauge(METRICS.milestoneCompletionRate, (result) => observeRatios(result, this.completionByTenant));
    gauge(METRICS.selfHealRate, (result) => observeRatios(result, this.selfHealByTenant));
    gauge(METRICS.falsePositiveShare, (result) => {
      for (const [tenant, shares] of this.falsePositiveShareByTenant) for (const [detector, share] of shares) result.observe(share, { tenant, detector });
    });
    gauge(METRICS.consumerLag, (result) => {
      for (const source of this.lagSources) {
        for (const reading of source()) result.observe(reading.lag, { service: reading.group, topic: reading.topic });
      }
    });
  }

  /** One step's detection cost (DetectionEngineOptions.onStepCost), summed per tenant until `detectionCostFlushed`. */
  detectionCost(tenantId: string, work: number, seconds: number): void {
    if (!this.enabled) return;
    const cost = this.detectionCosts.get(tenantId);
    if (cost) {
      cost.seconds += seconds;
      cost.work += work;
    } else this.detectionCosts.set(tenantId, { seconds, work });
  }

  /** The detection cost summed since the last call, added per tenant for `service` (once per batch). */
  detectionCostFlushed(service: string): void {
    if (!this.enabled || this.detectionCosts.size === 0) return;
    for (const [tenant, cost] of this.detectionCosts) {
      const attributes = { tenant, service };
      this.detectionTime.add(cost.seconds, attributes);
      this.detectionWork.add(cost.work, attributes);
    }
    this.detectionCosts.clear();
  }

  /** A step not applied again (a redelivery at or below the last seq applied), by reason. */
  duplicateStep(tenantId: string, service: string, reason: string): void {
    if (!this.enabled) return;
    this.stepDuplicates.add(1, { tenant: tenantId, service, reason });
  }

  /** Agents whose versioned state write found a newer state (reloaded, batch retried). */
  stateConflict(tenantId: string, service: string): void {
    if (!this.enabled) return;
    this.stateConflicts.add(1, { tenant: tenantId, service });
  }

  /** Steps handled by `service` (every service that consumes steps or localized steps reports them). */
  stepsProcessed(steps: Iterable<StepEvent>, service: string): void {
    if (!this.enabled) return;
    const counts = new Map<string, { tenant: string; kind: string; n: number }>();
    for (const { tenantId: tenant, kind } of steps) {
      const key = `${tenant}\u0000${kind}`;
      const count = counts.get(key);
      if (count) count.n += 1;
      else counts.set(key, { tenant, kind, n: 1 });
    }
    for (const { tenant, kind, n } of counts.values()) this.steps.add(n, { tenant, service, kind });
  }

  /**
   * A localized step: milestones newly completed, and the planned milestones of a newly seen agent.
   * Called per step (an `add` only when a milestone completes, which is rare).
   */
  localized(localized: LocalizedStep, milestonesOnMap: number): void {
    const { step, position } = localized;
    if (!this.enabled || position.method === 'unknown') return;
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

  /** A batch's steps and the deviations they caused: each step counted as scanned and, if it repeated, as a repetition. */
  detected(steps: readonly StepEvent[], deviations: readonly Deviation[]): void {
    if (!this.enabled) return;
    let last: StepEvent | undefined;
    let ratio: Ratio | undefined;
    for (const step of steps) {
      if (step.tenantId !== last?.tenantId) ratio = ratioOf(this.repetitionByTenant, step.tenantId);
      ratio!.total += 1;
      last = step;
    }
    // A step that repeated is one with at least one loop-family deviation (several count once).
    const repeatedSteps = new Set<string>();
    const repeated = new Map<string, number>();
    for (const d of deviations) {
      if (!LOOP_DETECTORS.has(d.detector)) continue;
      const key = `${d.tenantId}\u0000${d.agentId}\u0000${d.atSeq}`;
      if (repeatedSteps.has(key)) continue;
      repeatedSteps.add(key);
      repeated.set(d.tenantId, (repeated.get(d.tenantId) ?? 0) + 1);
      ratioOf(this.repetitionByTenant, d.tenantId).hits += 1;
    }
    for (const [tenant, n] of repeated) this.repetitions.add(n, { tenant });
    this.deviations(deviations);
  }

  /** Deviations (of a batch's steps, or from the stagnation timer), with their latencies and idle times. */
  deviations(deviations: readonly Deviation[]): void {
    if (!this.enabled || deviations.length === 0) return;
    const nowMs = this.now();
    // One label object per tenant, detector and level: counted once, and shared by the latencies.
    const sets = new Map<string, { counted: Attributes; latency: Attributes; n: number }>();
    for (const deviation of deviations) {
      const { tenantId: tenant, detector, level } = deviation;
      const key = `${tenant}\u0000${detector}\u0000${level}`;
      let set = sets.get(key);
      if (!set) sets.set(key, (set = { counted: { tenant, detector, level }, latency: { tenant, detector }, n: 0 }));
      set.n += 1;
      const stepTs = stepTimeOf(deviation);
      const latency = stepTs === undefined ? undefined : secondsSince(stepTs, nowMs);
      if (latency !== undefined) this.stepToDeviation.record(latency, set.latency);
      if (detector === 'stagnation') {
        const idleMs = deviation.evidence['idleMs'];
        if (typeof idleMs === 'number' && idleMs >= 0) this.stagnationDuration.record(idleMs / 1000, { tenant, level });
      }
    }
    for (const { counted, n } of sets.values()) this.deviationCount.add(n, counted);
  }

  /**
   * A correction published, with its cause: the deviation (whose ts is its step's) or the step's time.
   * Corrections of timer deviations (stagnation by wall clock) have no step, hence no latency.
   */
  correction(correction: Correction, cause: Deviation | string | number): void {
    if (!this.enabled) return;
    this.corrections.add(1, { tenant: correction.tenantId, severity: correction.severity, action: correction.action });
    const stepTs = typeof cause === 'object' ? stepTimeOf(cause) : cause;
    const latency = stepTs === undefined ? undefined : secondsSince(stepTs, this.now());
    if (latency !== undefined) this.stepToCorrection.record(latency, { tenant: correction.tenantId, severity: correction.severity });
  }

  escalation(escalation: Escalation): void {
    if (!this.enabled) return;
    this.escalations.add(1, { tenant: escalation.tenantId });
  }

  /** Self-heal outcomes decided for a tenant. */
  selfHeal(tenantId: string, healed: number, failed: number): void {
    if (!this.enabled || (healed <= 0 && failed <= 0)) return;
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

  /** An operator marked a deviation of `detector` as a false positive. */
  falsePositiveMarked(tenantId: string, detector: string): void {
    if (!this.enabled) return;
    this.falsePositives.add(1, { tenant: tenantId, detector });
  }

  /**
   * The tenant's false-positive share per detector now (replaces what was reported before; detectors
   * without deviations are left out). Bounded by `maxTrackedAgents` tenants.
   */
  falsePositiveShares(tenantId: string, shares: ReadonlyArray<{ readonly detector: string; readonly deviations: number; readonly falsePositiveShare: number }>): void {
    if (!this.enabled) return;
    if (!this.falsePositiveShareByTenant.has(tenantId) && this.falsePositiveShareByTenant.size >= this.maxTrackedAgents) {
      const oldest = this.falsePositiveShareByTenant.keys().next();
      if (!oldest.done) this.falsePositiveShareByTenant.delete(oldest.value);
    }
    this.falsePositiveShareByTenant.set(tenantId, new Map(shares.filter((s) => s.deviations > 0).map((s) => [s.detector, s.falsePositiveShare])));
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
