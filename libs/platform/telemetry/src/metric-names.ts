/**
 * Every metric Wayfinder exports (DESIGN §8), in one table: OpenTelemetry name, instrument kind, unit,
 * the attributes it may carry, and the name it gets in Prometheus after the collector's prometheus
 * exporter (deploy/otel/collector.yaml). Alert rules and dashboards are checked against `prometheusName`
 * (deploy/prometheus/alerts-rules.spec.ts), so a renamed instrument cannot silently orphan an alert.
 *
 * Units: counted things use curly-brace annotations (`{step}`), which the exporter drops, so counters
 * end in `_total` only; durations are seconds (`s` → `_seconds`); ratios are gauges with unit `1`,
 * which the exporter suffixes `_ratio`. Labels never include the agent id (unbounded cardinality).
 */

export type InstrumentKind = 'counter' | 'histogram' | 'gauge';

export interface MetricSpec {
  readonly name: string;
  readonly kind: InstrumentKind;
  readonly unit: string;
  readonly description: string;
  readonly attributes: readonly string[];
}

export const METRICS = {
  stepsProcessed: { name: 'wayfinder.steps.processed', kind: 'counter', unit: '{step}', description: 'Steps handled, per service', attributes: ['tenant', 'service', 'kind'] },
  stateConflicts: { name: 'wayfinder.state.conflicts', kind: 'counter', unit: '{agent}', description: 'Versioned per-agent state writes refused because another instance wrote the agent since (a partition moved): the agent is reloaded and the batch retried', attributes: ['tenant', 'service'] },
  stepDuplicates: { name: 'wayfinder.steps.duplicates', kind: 'counter', unit: '{step}', description: 'Steps not applied again: a seq at or below the last one applied for the agent and run (redelivery), by reason', attributes: ['tenant', 'service', 'reason'] },
  deviations: { name: 'wayfinder.deviations', kind: 'counter', unit: '{deviation}', description: 'Deviations raised, by detector and level', attributes: ['tenant', 'detector', 'level'] },
  repetitions: { name: 'wayfinder.repetitions', kind: 'counter', unit: '{step}', description: 'Steps that raised a loop-family deviation', attributes: ['tenant'] },
  repetitionRate: { name: 'wayfinder.repetition.rate', kind: 'gauge', unit: '1', description: 'Share of scanned steps that raised a loop-family deviation, since process start', attributes: ['tenant'] },
  stagnationDuration: { name: 'wayfinder.stagnation.duration', kind: 'histogram', unit: 's', description: 'Time without milestone progress when a stagnation deviation fired', attributes: ['tenant', 'level'] },
  milestonesCompleted: { name: 'wayfinder.milestones.completed', kind: 'counter', unit: '{milestone}', description: 'Milestones newly completed by the agents, by localization method', attributes: ['tenant', 'method'] },
  milestoneCompletionRate: { name: 'wayfinder.milestone.completion.rate', kind: 'gauge', unit: '1', description: 'Completed milestones over the milestones of the maps of the agents seen, since process start', attributes: ['tenant'] },
  corrections: { name: 'wayfinder.corrections', kind: 'counter', unit: '{correction}', description: 'Corrections issued, by severity and action', attributes: ['tenant', 'severity', 'action'] },
  selfHealSuccesses: { name: 'wayfinder.self_heal.successes', kind: 'counter', unit: '{correction}', description: 'Corrections after which the agent progressed within the self-heal window', attributes: ['tenant'] },
  selfHealFailures: { name: 'wayfinder.self_heal.failures', kind: 'counter', unit: '{correction}', description: 'Corrections after which the agent did not progress within the self-heal window', attributes: ['tenant'] },
  selfHealRate: { name: 'wayfinder.self_heal.rate', kind: 'gauge', unit: '1', description: 'Healed over judged corrections, since process start (>=0.9 healthy, <0.7 the map is wrong)', attributes: ['tenant'] },
  escalations: { name: 'wayfinder.escalations', kind: 'counter', unit: '{escalation}', description: 'Agents frozen and escalated to a human', attributes: ['tenant'] },
  stepToDeviationLatency: { name: 'wayfinder.step_to_deviation.latency', kind: 'histogram', unit: 's', description: 'From the step (its ts) to the deviation it caused being published', attributes: ['tenant', 'detector'] },
  stepToCorrectionLatency: { name: 'wayfinder.step_to_correction.latency', kind: 'histogram', unit: 's', description: 'From the step (its ts) to the correction it led to being published', attributes: ['tenant', 'severity'] },
  consumerLag: { name: 'wayfinder.consumer.lag', kind: 'gauge', unit: '{message}', description: 'Messages not yet consumed, per consumer group and topic', attributes: ['service', 'topic'] },
  falsePositives: { name: 'wayfinder.false_positives', kind: 'counter', unit: '{deviation}', description: 'Deviations an operator marked as false positives, by detector', attributes: ['tenant', 'detector'] },
  falsePositiveShare: { name: 'wayfinder.false_positive.share', kind: 'gauge', unit: '1', description: "Share of a detector's deviations in the tenant's retained history that operators marked false positives", attributes: ['tenant', 'detector'] },
  detectionTime: { name: 'wayfinder.detection.time', kind: 'counter', unit: 's', description: "Wall time the detectors spent on a tenant's steps, per service: one tenant's share of the detection CPU", attributes: ['tenant', 'service'] },
  detectionWork: { name: 'wayfinder.detection.work', kind: 'counter', unit: '{unit}', description: "Argument values and characters the detectors read of a tenant's steps, within the per-step bounds (WAYFINDER_DETECTION_MAX_*): deterministic, the same on a replay", attributes: ['tenant', 'service'] },
  dlqMessages: { name: 'wayfinder.dlq.messages', kind: 'counter', unit: '{message}', description: 'Messages dead-lettered, per source topic', attributes: ['topic'] },
} as const satisfies Record<string, MetricSpec>;

export type MetricKey = keyof typeof METRICS;

/** Latency buckets in seconds: sub-millisecond in process up to a minute across a lagging fleet. */
export const LATENCY_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Stagnation buckets in seconds: from tens of seconds to hours. */
export const STAGNATION_BUCKETS_S = [10, 30, 60, 120, 300, 600, 1_800, 3_600, 7_200, 14_400];

const UNIT_WORDS: Record<string, string> = {
  s: 'seconds', ms: 'milliseconds', us: 'microseconds', ns: 'nanoseconds', min: 'minutes', h: 'hours', d: 'days',
  By: 'bytes', KiBy: 'kibibytes', MiBy: 'mebibytes', '%': 'percent',
};

/**
 * The Prometheus name the collector's prometheus exporter (add_metric_suffixes: true, the default) gives
 * an OpenTelemetry metric: non-alphanumerics become `_`, the unit's word is appended unless the name
 * already has it (annotations in braces are dropped; unit `1` on a gauge becomes `_ratio`), and monotonic
 * counters end in `_total`. Histograms are this name plus `_bucket`, `_sum` and `_count`.
 */
export function prometheusName(spec: Pick<MetricSpec, 'name' | 'kind' | 'unit'>): string {
  const tokens = spec.name.split(/[^A-Za-z0-9]+/).filter((t) => t.length > 0);
  const unit = spec.unit.replace(/\{[^}]*\}/g, '').trim();
  let unitWord = '';
  if (unit === '1') unitWord = spec.kind === 'gauge' ? 'ratio' : '';
  else if (unit) {
    const [main, per] = unit.split('/');
    unitWord = [UNIT_WORDS[main] ?? main, per ? `per_${UNIT_WORDS[per] ?? per}` : ''].filter(Boolean).join('_');
  }
  for (const word of unitWord.split('_').filter(Boolean)) {
    if (!tokens.includes(word)) tokens.push(word);
  }
  if (spec.kind === 'counter' && tokens[tokens.length - 1] !== 'total') tokens.push('total');
  return tokens.join('_');
}

/** Every series name Prometheus will hold for our metrics (histograms expanded to their three series). */
export function prometheusSeriesNames(): string[] {
  const names: string[] = [];
  for (const spec of Object.values(METRICS)) {
    const base = prometheusName(spec);
    if (spec.kind === 'histogram') names.push(`${base}_bucket`, `${base}_sum`, `${base}_count`);
    else names.push(base);
  }
  return names;
}
