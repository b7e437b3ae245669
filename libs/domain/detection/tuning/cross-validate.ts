/**
 * k-fold cross-validation of detector thresholds over a TRAIL-style set (honest tuning, DESIGN §5.3): the
 * traces are split into k folds stratified by label; for each fold, a candidate policy overlay is chosen on
 * the other k − 1 folds (highest loop recall with false-positive rate ≤ the target, then lower FPR, better
 * localization, then fewer alarms on the training traces, then earlier candidate) and scored on the held-out
 * fold, which it never saw. The alarm count settles ties the way unseen traces need: of two settings that flag
 * the same training traces, the one that raises fewer deviations fires less on what it has not seen. The mean and spread
 * of the held-out figures estimate what the procedure gives on unseen traces of the same kind; the policy
 * kept is the candidate chosen by most folds.
 */
import { LOOP_FAMILY, type DetectorName, type PolicyOverlay, type StepEvent } from '@wayfinder/contracts';
import { HashingEmbedder } from '@wayfinder/embeddings';
import { callIndex, LOOP_CATEGORY, scoreFamily, type FamilyScore, type ScoredDeviation, type StepIndex, type TrailLabel } from '@wayfinder/evaluation';
import { DetectionEngine } from '../src/detection.engine';
import { DriftDetector } from '../src/drift';
import { hash32 } from '../src/fingerprint/hash';
import { resolvePolicy } from '../src/policy/resolve';

export interface LabelledTrace {
  label: TrailLabel;
  events: StepEvent[];
}

export interface Candidate {
  name: string;
  overlay: PolicyOverlay;
}

export interface FoldResult {
  fold: number;
  chosen: string;
  train: FamilyScore;
  heldOut: FamilyScore;
}

export interface CrossValidation {
  k: number;
  folds: FoldResult[];
  /** `leadMedian`: the mean over folds of the held-out median lead time (calls; folds that caught nothing left out). */
  mean: { recall: number; falsePositiveRate: number; localized: number; leadMedian: number | null };
  spread: { recall: number; falsePositiveRate: number; localized: number; leadMedian: number | null };
  /** The candidate chosen by most folds (ties: the earlier candidate). */
  kept: string;
}

/** Which deviations are scored against which label (shared/data README): loops by default. */
export interface Family {
  detectors: readonly DetectorName[];
  category: string;
  /** Whether the engine runs the drift detector (plugged in as the detector worker does). */
  drift?: boolean;
}
export const LOOPS: Family = { detectors: LOOP_FAMILY, category: LOOP_CATEGORY };

/** Deviations of each trace under one overlay (a fresh engine per trace, as `wayfinder eval trail` does). */
export function deviationsUnder(traces: readonly LabelledTrace[], overlay: PolicyOverlay, withDrift = false): Map<string, ScoredDeviation[]> {
  const policy = resolvePolicy(overlay);
  const out = new Map<string, ScoredDeviation[]>();
  for (const trace of traces) {
    const engine = new DetectionEngine({ policyFor: () => ({ policy }), extraDetectors: withDrift ? [new DriftDetector(new HashingEmbedder())] : [] });
    const found: ScoredDeviation[] = [];
    for (const event of trace.events) for (const d of engine.onStep(event)) found.push({ detector: d.detector, level: d.level, atSeq: d.atSeq, loopStartSeq: d.loopStartSeq });
    out.set(trace.label.traceId, found);
  }
  return out;
}

/** The step index (calls) of each trace, for the lead time. */
export function stepsOfTraces(traces: readonly LabelledTrace[]): (traceId: string) => StepIndex | undefined {
  const byTrace = new Map(traces.map((t) => [t.label.traceId, callIndex(t.events)]));
  return (traceId) => byTrace.get(traceId);
}

/** Stratified folds: positives and negatives each ordered by a hash of the trace id, dealt round-robin. */
export function stratifiedFolds(labels: readonly TrailLabel[], k: number, category = LOOP_CATEGORY): number[][] {
  const positive = (l: TrailLabel) => l.errors.some((e) => e.category.toLowerCase() === category);
  const order = (list: TrailLabel[]) => list.map((l, i) => ({ i, h: hash32(l.traceId) >>> 0, l })).sort((a, b) => a.h - b.h || a.i - b.i);
  const indexed = labels.map((l, i) => ({ l, i }));
  const folds: number[][] = Array.from({ length: k }, () => []);
  let next = 0;
  for (const group of [indexed.filter((x) => positive(x.l)), indexed.filter((x) => !positive(x.l))]) {
    for (const { l } of order(group.map((x) => x.l))) folds[next++ % k].push(labels.indexOf(l));
  }
  return folds;
}

function better(a: FamilyScore, b: FamilyScore, maxFpr: number, aAlarms: number, bAlarms: number): boolean {
  const aOk = a.falsePositiveRate <= maxFpr;
  const bOk = b.falsePositiveRate <= maxFpr;
  if (aOk !== bOk) return aOk;
  if (!aOk) return a.falsePositiveRate < b.falsePositiveRate || (a.falsePositiveRate === b.falsePositiveRate && a.recall > b.recall);
  if (a.recall !== b.recall) return a.recall > b.recall;
  if (a.falsePositiveRate !== b.falsePositiveRate) return a.falsePositiveRate < b.falsePositiveRate;
  if (a.localized !== b.localized) return a.localized > b.localized;
  return aAlarms < bAlarms;
}

function meanAndSpread(values: number[]): [number, number] {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const variance = values.length > 1 ? values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1) : 0;
  return [mean, Math.sqrt(variance)];
}

export function crossValidate(
  traces: readonly LabelledTrace[],
  candidates: readonly Candidate[],
  options: {
    k?: number;
    maxFalsePositiveRate?: number;
    family?: Family;
    /**
     * The one-standard-error rule: of the candidates within one standard error of the best training recall
     * (√(r(1−r)/positives)) at no higher FPR, the one that raises the fewest alarms on the training traces.
     * On 14 training positives one trace is 0.07 of recall, so the best setting is often best by one lucky
     * trace; the quieter neighbour fires less on traces it has not seen.
     */
    oneStandardError?: boolean;
    /** Folds given by the caller (indices into `traces`) instead of the stratified ones: e.g. one per dataset. */
    folds?: number[][];
  } = {},
): CrossValidation {
  const k = options.k ?? 5;
  const maxFpr = options.maxFalsePositiveRate ?? 0.05;
  const family = options.family ?? LOOPS;
  const labels = traces.map((t) => t.label);
  const runs = candidates.map((c) => deviationsUnder(traces, c.overlay, family.drift === true));
  const folds = options.folds ?? stratifiedFolds(labels, k, family.category);
  const inFamily = new Set<string>(family.detectors);
  // Deviations of the family per candidate and trace: the alarm volume that settles ties.
  const alarms = runs.map((run) => labels.map((l) => (run.get(l.traceId) ?? []).filter((d) => inFamily.has(d.detector)).length));
  const alarmsOn = (c: number, subset: number[]) => subset.reduce((sum, i) => sum + alarms[c][i], 0);
  const stepsOf = stepsOfTraces(traces);
  const score = (run: Map<string, ScoredDeviation[]>, subset: TrailLabel[]) =>
    scoreFamily(subset, (id) => run.get(id), { detectors: family.detectors, category: family.category, stepsOf });
  const results: FoldResult[] = [];
  const votes = new Map<number, number>();
  folds.forEach((fold, f) => {
    const heldOut = fold.map((i) => labels[i]);
    const trainIndex = labels.map((_, i) => i).filter((i) => !fold.includes(i));
    const train = trainIndex.map((i) => labels[i]);
    let best = 0;
    let bestScore = score(runs[0], train);
    let bestAlarms = alarmsOn(0, trainIndex);
    for (let c = 1; c < candidates.length; c++) {
      const s = score(runs[c], train);
      const a = alarmsOn(c, trainIndex);
      if (better(s, bestScore, maxFpr, a, bestAlarms)) {
        best = c;
        bestScore = s;
        bestAlarms = a;
      }
    }
    if (options.oneStandardError && bestScore.falsePositiveRate <= maxFpr) {
      const r = bestScore.recall;
      const floor = r - Math.sqrt((r * (1 - r)) / Math.max(1, bestScore.positives)) - 1e-9;
      for (let c = 0; c < candidates.length; c++) {
        const s = score(runs[c], train);
        if (s.falsePositiveRate > bestScore.falsePositiveRate || s.recall < floor) continue;
        const a = alarmsOn(c, trainIndex);
        if (a < bestAlarms || (a === bestAlarms && s.recall > bestScore.recall)) {
          best = c;
          bestScore = s;
          bestAlarms = a;
        }
      }
    }
    votes.set(best, (votes.get(best) ?? 0) + 1);
    results.push({ fold: f + 1, chosen: candidates[best].name, train: bestScore, heldOut: score(runs[best], heldOut) });
  });
  const [recall, recallSpread] = meanAndSpread(results.map((r) => r.heldOut.recall));
  const [fpr, fprSpread] = meanAndSpread(results.map((r) => r.heldOut.falsePositiveRate));
  const [localized, localizedSpread] = meanAndSpread(results.map((r) => r.heldOut.localized));
  const foldLeads = results.flatMap((r) => (r.heldOut.leadTime.median === null ? [] : [r.heldOut.leadTime.median]));
  const [leadMedian, leadSpread] = foldLeads.length > 0 ? meanAndSpread(foldLeads) : [null, null];
  const kept = [...votes.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
  return {
    k: folds.length,
    folds: results,
    mean: { recall, falsePositiveRate: fpr, localized, leadMedian },
    spread: { recall: recallSpread, falsePositiveRate: fprSpread, localized: localizedSpread, leadMedian: leadSpread },
    kept: candidates[kept].name,
  };
}
