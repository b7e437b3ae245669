/**
 * Goal persistence of one trajectory (DESIGN §9): anchor recall, trajectory consistency (share of steps
 * serving at least one anchor — rules first, embedding similarity second, with rule coverage reported),
 * deviation count and mean return length, resource efficiency, self-heal rate, and the persistence curve
 * with deviation points marked. Fed step by step with what navigation produced; pure.
 */
import type { Anchor, CognitiveMap, Deviation, StepEvent } from '@wayfinder/contracts';
import { anchorStatus, emptyProgress, stepText, updateAnchorProgress, type AnchorProgress } from '@wayfinder/cognitive-map';
import { cosine, type SyncEmbedder } from '@wayfinder/embeddings';

export interface GoalPersistenceOptions {
  /** Judges steps no rule decides: cosine of the step's text to an anchor's text. Without it they count as not serving. */
  embedder?: SyncEmbedder;
  /** Cosine at or above which the embedder says a step serves an anchor (hashing embedder: 0.2). */
  similarityThreshold?: number;
  /** The curve keeps at most this many points (deviation points always kept). */
  maxCurvePoints?: number;
}

/** What the correction engine reports when it learns whether a corrected agent healed. */
export interface SelfHealMark {
  readonly healed: boolean;
  /** Steps from the correction to the outcome: the return length when healed. */
  readonly steps: number;
}

export interface PersistencePoint {
  readonly seq: number;
  /** Share of judged steps so far that served an anchor. */
  readonly consistency: number;
  /** Detectors that fired on this step, when any. */
  readonly deviations?: readonly string[];
}

export interface GoalPersistenceReport {
  readonly steps: number;
  readonly judgedSteps: number;
  /** Anchors met at the end ÷ anchors (null when the map has no anchors). */
  readonly anchorRecall: number | null;
  readonly anchors: Record<string, { target: number; count: number; met: boolean }>;
  /** Judged steps serving at least one anchor ÷ judged steps. */
  readonly trajectoryConsistency: number;
  /** Judged steps decided by a rule ÷ judged steps. */
  readonly ruleCoverage: number;
  readonly deviations: number;
  /** Mean steps from a correction to the agent's return (healed outcomes only; null when none). */
  readonly meanReturnLength: number | null;
  /** Tokens on anchor-serving steps ÷ all tokens; calls instead when the steps carry no token usage. */
  readonly resourceEfficiency: number;
  readonly resourceUnit: 'tokens' | 'calls';
  /** Healed ÷ resolved self-heal outcomes (null when no correction was resolved). */
  readonly selfHealRate: number | null;
  readonly curve: readonly PersistencePoint[];
}

export class GoalPersistence {
  private progress: AnchorProgress;
  private readonly anchorVectors: Float32Array[];
  private readonly threshold: number;
  private readonly maxPoints: number;
  private steps = 0;
  private judged = 0;
  private serving = 0;
  private byRule = 0;
  private deviationCount = 0;
  private readonly seenDeviations = new Set<string>();
  private tokens = { all: 0, serving: 0 };
  private calls = { all: 0, serving: 0 };
  private healed = 0;
  private resolved = 0;
  private returnSteps = 0;
  private points: PersistencePoint[] = [];
  private stride = 1;
  private sinceKept = 0;

  constructor(
    private readonly map: Pick<CognitiveMap, 'anchors'>,
    private readonly options: GoalPersistenceOptions = {},
  ) {
    this.progress = emptyProgress(map.anchors);
    const embedder = options.embedder;
    this.anchorVectors = embedder ? map.anchors.map((a) => embedder.embedSync(anchorText(a))) : [];
    this.threshold = options.similarityThreshold ?? 0.2;
    this.maxPoints = Math.max(2, options.maxCurvePoints ?? 500);
  }

  /** One step and the deviations navigation raised on it. */
  onStep(step: StepEvent, deviations: readonly Pick<Deviation, 'eventId' | 'detector'>[] = []): void {
    this.steps++;
    const fresh = deviations.filter((d) => !this.seenDeviations.has(d.eventId));
    for (const d of fresh) this.seenDeviations.add(d.eventId);
    this.deviationCount += fresh.length;

    const verdict = this.judge(step);
    if (verdict !== undefined) {
      this.judged++;
      if (verdict.byRule) this.byRule++;
      if (verdict.serves) this.serving++;
      const used = (step.usage?.inputTokens ?? 0) + (step.usage?.outputTokens ?? 0);
      this.tokens.all += used;
      if (verdict.serves) this.tokens.serving += used;
      if (step.kind === 'action') {
        this.calls.all++;
        if (verdict.serves) this.calls.serving++;
      }
      this.addPoint(step.seq, fresh.map((d) => d.detector));
    } else if (fresh.length > 0) {
      this.addPoint(step.seq, fresh.map((d) => d.detector));
    }
  }

  onSelfHeal(outcome: SelfHealMark): void {
    this.resolved++;
    if (outcome.healed) {
      this.healed++;
      this.returnSteps += outcome.steps;
    }
  }

  report(): GoalPersistenceReport {
    const anchors: GoalPersistenceReport['anchors'] = {};
    let met = 0;
    for (const anchor of this.map.anchors) {
      const count = this.progress[anchor.id]?.count ?? 0;
      const isMet = anchorStatus(anchor, count) === 'met';
      if (isMet) met++;
      anchors[anchor.id] = { target: anchor.target, count, met: isMet };
    }
    const useTokens = this.tokens.all > 0;
    const resource = useTokens ? this.tokens : this.calls;
    return {
      steps: this.steps,
      judgedSteps: this.judged,
      anchorRecall: this.map.anchors.length === 0 ? null : met / this.map.anchors.length,
      anchors,
      trajectoryConsistency: ratio(this.serving, this.judged),
      ruleCoverage: ratio(this.byRule, this.judged),
      deviations: this.deviationCount,
      meanReturnLength: this.healed === 0 ? null : this.returnSteps / this.healed,
      resourceEfficiency: ratio(resource.serving, resource.all),
      resourceUnit: useTokens ? 'tokens' : 'calls',
      selfHealRate: this.resolved === 0 ? null : this.healed / this.resolved,
      curve: [...this.points],
    };
  }

  /**
   * Rules first: a step that moves an anchor's tally serves it. Then the embedder, when given. Steps
   * with no text of their own (an empty observation) are not judged at all.
   */
  private judge(step: StepEvent): { serves: boolean; byRule: boolean } | undefined {
    const before = this.progress;
    this.progress = updateAnchorProgress(this.map.anchors, before, step);
    if (this.progress !== before) return { serves: true, byRule: true };
    if (step.kind === 'milestone') return { serves: step.milestone.status === 'done', byRule: true };
    const text = stepText(step)?.text;
    if (!text) return undefined;
    if (!this.options.embedder || this.anchorVectors.length === 0) return { serves: false, byRule: false };
    const vector = this.options.embedder.embedSync(text);
    return { serves: this.anchorVectors.some((a) => cosine(a, vector) >= this.threshold), byRule: false };
  }

  /** Keeps the curve bounded: every stride-th point, doubling the stride when full; deviations always. */
  private addPoint(seq: number, detectors: string[]): void {
    const point: PersistencePoint = { seq, consistency: ratio(this.serving, this.judged), ...(detectors.length > 0 ? { deviations: detectors } : {}) };
    this.sinceKept++;
    if (detectors.length === 0 && this.sinceKept < this.stride) return;
    this.sinceKept = 0;
    this.points.push(point);
    if (this.points.length > this.maxPoints) {
      this.stride *= 2;
      this.points = this.points.filter((p, i) => p.deviations !== undefined || i % 2 === 0);
    }
  }
}

function anchorText(anchor: Anchor): string {
  return `${anchor.text} ${anchor.unit}`;
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}
