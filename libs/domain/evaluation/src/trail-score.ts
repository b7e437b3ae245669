/**
 * Trail scoring (shared/data/README.md "The loop and drift scores"): given the human labels of each trace
 * and the deviations navigation emitted on it, trace-level recall, false-positive rate and localization
 * for a detector family against a label category. Pure; the CLI feeds it.
 */
import { LOOP_FAMILY, type Deviation, type DetectorName } from '@wayfinder/contracts';
import { leadOf, type LeadTime, type StepIndex, summarizeLeads } from './lead-time';
import { normalizeCategory, type TrailLabel } from './trail-labels';
import { type ProportionInterval, wilsonInterval } from './wilson';

/** What scoring needs of a deviation; a full Deviation fits (`loopStartSeq`, the onset, for the lead time). */
export type ScoredDeviation = Pick<Deviation, 'detector' | 'level' | 'atSeq'> & { loopStartSeq?: number };

export const LOOP_CATEGORY = 'resource abuse';
export const DRIFT_CATEGORY = 'goal deviation';

/** A deviation localizes a label at seq `s` when its atSeq lies in [s − before, s + after]. */
export interface LocalizationWindow {
  readonly before: number;
  readonly after: number;
}
/** TRAIL marks a loop at its last repeat, so the window reaches further back than forward. */
export const DEFAULT_WINDOW: LocalizationWindow = { before: 8, after: 2 };

export interface FamilyScore {
  readonly detectors: readonly DetectorName[];
  readonly category: string;
  readonly positives: number;
  readonly negatives: number;
  readonly flaggedPositives: number;
  readonly flaggedNegatives: number;
  readonly localizedPositives: number;
  /** flagged positives ÷ positives (0 when there are no positives). */
  readonly recall: number;
  /** flagged negatives ÷ negatives (0 when there are no negatives). */
  readonly falsePositiveRate: number;
  /** positives with a family deviation inside the window of a labelled seq ÷ positives. */
  readonly localized: number;
  /** 95% Wilson intervals of recall, false-positive rate and localization (small sets: read them). */
  readonly recallInterval: ProportionInterval;
  readonly falsePositiveRateInterval: ProportionInterval;
  readonly localizedInterval: ProportionInterval;
  /** Per detector of the family: traces it flagged, split by label, to see which detector carries the score. */
  readonly byDetector: Record<string, { positives: number; negatives: number }>;
  /** Steps from a caught loop's onset to its first deviation, over the flagged positives (lead-time.ts). */
  readonly leadTime: LeadTime;
}

export interface FamilySpec {
  readonly detectors: readonly DetectorName[];
  readonly category: string;
  readonly window?: LocalizationWindow;
  /**
   * The step index of a trace (callIndex over its events), so that the lead time counts calls (a trace it
   * returns undefined for is left out of the lead); without it, the lead time counts events (seq difference).
   */
  readonly stepsOf?: (traceId: string) => StepIndex | undefined;
}

/**
 * Scores one detector family against one label category. `deviationsOf(traceId)` returns the deviations
 * emitted on that trace (empty or undefined when none).
 */
export function scoreFamily(
  labels: readonly TrailLabel[],
  deviationsOf: (traceId: string) => readonly ScoredDeviation[] | undefined,
  spec: FamilySpec,
): FamilyScore {
  const family = new Set<string>(spec.detectors);
  const category = normalizeCategory(spec.category);
  const window = spec.window ?? DEFAULT_WINDOW;
  let positives = 0;
  let flaggedPositives = 0;
  let flaggedNegatives = 0;
  let localizedPositives = 0;
  const byDetector: Record<string, { positives: number; negatives: number }> = {};
  const leads: number[] = [];
  const unit = spec.stepsOf ? 'calls' : 'events';

  for (const label of labels) {
    const seqs = label.errors.filter((e) => normalizeCategory(e.category) === category).flatMap((e) => e.seqs);
    const positive = label.errors.some((e) => normalizeCategory(e.category) === category);
    const hits = (deviationsOf(label.traceId) ?? []).filter((d) => family.has(d.detector));
    if (positive) positives++;
    if (hits.length > 0) {
      if (positive) flaggedPositives++;
      else flaggedNegatives++;
    }
    if (positive && hits.length > 0) {
      // The first deviation of the caught loop (earliest atSeq; the first emitted on a tie).
      const first = hits.reduce((a, b) => (b.atSeq < a.atSeq ? b : a));
      const steps = spec.stepsOf?.(label.traceId);
      // Units never mix: a trace whose events are not known is left out of a lead counted in calls.
      const lead = spec.stepsOf && !steps ? null : leadOf(first, steps);
      if (lead !== null) leads.push(lead);
    }
    for (const detector of new Set(hits.map((d) => d.detector))) {
      const entry = (byDetector[detector] ??= { positives: 0, negatives: 0 });
      if (positive) entry.positives++;
      else entry.negatives++;
    }
    if (positive && hits.some((d) => seqs.some((s) => d.atSeq >= s - window.before && d.atSeq <= s + window.after))) {
      localizedPositives++;
    }
  }

  const negatives = labels.length - positives;
  return {
    detectors: [...spec.detectors],
    category,
    positives,
    negatives,
    flaggedPositives,
    flaggedNegatives,
    localizedPositives,
    recall: ratio(flaggedPositives, positives),
    falsePositiveRate: ratio(flaggedNegatives, negatives),
    localized: ratio(localizedPositives, positives),
    recallInterval: wilsonInterval(flaggedPositives, positives),
    falsePositiveRateInterval: wilsonInterval(flaggedNegatives, negatives),
    localizedInterval: wilsonInterval(localizedPositives, positives),
    byDetector,
    leadTime: summarizeLeads(leads, unit),
  };
}

export interface TrailScore {
  readonly traces: number;
  readonly loop: FamilyScore;
  readonly drift: FamilyScore;
}

/** The two figures the project reports on a TRAIL set: loops vs `resource abuse`, drift vs `goal deviation`. */
export function scoreTrail(
  labels: readonly TrailLabel[],
  deviationsOf: (traceId: string) => readonly ScoredDeviation[] | undefined,
  window: LocalizationWindow = DEFAULT_WINDOW,
  stepsOf?: (traceId: string) => StepIndex | undefined,
): TrailScore {
  return {
    traces: labels.length,
    loop: scoreFamily(labels, deviationsOf, { detectors: LOOP_FAMILY, category: LOOP_CATEGORY, window, stepsOf }),
    drift: scoreFamily(labels, deviationsOf, { detectors: ['drift'], category: DRIFT_CATEGORY, window, stepsOf }),
  };
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}
