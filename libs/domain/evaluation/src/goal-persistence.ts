/**
 * Goal persistence of one trajectory (DESIGN §9), fed step by step with what navigation produced; pure.
 * - anchor recall: anchors met in the final output (counted by the anchors' own rule, `updateAnchorProgress`,
 *   over that output alone); met, missed, or met late (an earlier output had declared the task done without it);
 * - trajectory consistency: share of judged steps serving at least one open anchor or the current milestone.
 *   Rules first (progress on an anchor or milestone; an exact repeat since the last progress serves nothing;
 *   argument and result terms shared with the anchor's or milestone's terms), the embedder second for what
 *   no rule decides, and the share decided by rules reported;
 * - deviation count and mean return length: steps from a deviation to the next progress;
 * - resource efficiency: tokens and calls on serving steps ÷ all;
 * - self-heal rate, overall and per rung;
 * - the persistence curve with deviation, correction and milestone points marked.
 */
import type { Anchor, CognitiveMap, Correction, CorrectionAction, Deviation, Milestone, StepEvent } from '@wayfinder/contracts';
import { anchorStatus, argsText, emptyProgress, stepText, updateAnchorProgress, type AnchorProgress } from '@wayfinder/cognitive-map';
import { cosine, type SyncEmbedder } from '@wayfinder/embeddings';
import { contentTerms, sharedTerms } from './serving-terms';

export interface GoalPersistenceOptions {
  /** Judges steps no rule decides: cosine of the step's text to an open anchor's or the current milestone's text. */
  embedder?: SyncEmbedder;
  /** Cosine at or above which the embedder says a step serves (hashing embedder: 0.2). */
  similarityThreshold?: number;
  /** Content terms a step must share with an anchor or milestone for the rule to say it serves (default 2). */
  minSharedTerms?: number;
  /** Judged steps in the curve's moving window (default 10). */
  window?: number;
  /** The curve keeps at most this many points (marked points always kept). */
  maxCurvePoints?: number;
  /**
   * When set, self-heal is judged here rather than reported through `onSelfHeal`: a delivered correction
   * (not a freeze) heals when the run progresses within this many steps after it (DESIGN §5.4's K).
   */
  selfHealWindow?: number;
}

/** What happened around one step, as navigation reported it. */
export interface StepMarks {
  /** Deviations raised on this step (counted once per eventId). */
  deviations?: readonly Pick<Deviation, 'eventId' | 'detector'>[];
  /** Corrections delivered to the agent after this step. */
  corrections?: readonly Pick<Correction, 'eventId' | 'action'>[];
  /** The agent's milestone as localized; default: the first milestone of the map not yet signalled done. */
  milestoneId?: string | null;
  /** The localized progress fraction on that milestone: a rise is progress, as for the correction engine. */
  progress?: number;
}

/** What the correction engine reports when it learns whether a corrected agent healed. */
export interface SelfHealMark {
  readonly action: CorrectionAction;
  readonly healed: boolean;
  /** Steps from the correction to the outcome. */
  readonly steps: number;
}

export type AnchorOutcome = 'met' | 'metLate' | 'missed';

export interface PersistencePoint {
  /** Position in the trajectory (0-based step index). */
  readonly index: number;
  readonly seq: number;
  /** Share of judged steps so far that served. */
  readonly consistency: number;
  /** Share of the last `window` judged steps that served. */
  readonly window: number;
  readonly deviations?: readonly string[];
  readonly corrections?: readonly CorrectionAction[];
  readonly milestone?: string;
}

export interface RungHeal {
  healed: number;
  resolved: number;
  rate: number | null;
}

export interface GoalPersistenceReport {
  readonly steps: number;
  readonly judgedSteps: number;
  /** Anchors met (on time or late) in the final output ÷ anchors; null when the map has no anchors. */
  readonly anchorRecall: number | null;
  readonly anchors: Record<string, { target: number; comparator: Anchor['comparator']; finalCount: number; reachedCount: number; outcome: AnchorOutcome }>;
  /** Seq of the output the anchors were read from (null: the run produced no output). */
  readonly finalOutputSeq: number | null;
  readonly trajectoryConsistency: number;
  /** Judged steps decided by a rule ÷ judged steps. */
  readonly ruleCoverage: number;
  readonly deviations: number;
  /** Runs of deviations before the next progress (each is one departure from the path). */
  readonly deviationEpisodes: number;
  /** Episodes followed by progress. */
  readonly returned: number;
  /** Mean steps from an episode's first deviation to the next progress (null when none returned). */
  readonly meanReturnLength: number | null;
  readonly resourceEfficiency: { tokens: number | null; calls: number | null };
  readonly corrections: number;
  /** Healed ÷ resolved self-heal outcomes (null when none was resolved). */
  readonly selfHealRate: number | null;
  readonly selfHealByRung: Partial<Record<CorrectionAction, RungHeal>>;
  readonly curve: readonly PersistencePoint[];
}

/** Bound on the distinct texts remembered for the repeat rule (memory stays bounded on long runs). */
const MAX_REMEMBERED = 4_096;

interface Verdict {
  serves: boolean;
  byRule: boolean;
}

export class GoalPersistence {
  private progress: AnchorProgress;
  private readonly anchorTerms: Set<string>[];
  private readonly anchorVectors: Float32Array[];
  private readonly milestoneTerms = new Map<string, Set<string>>();
  private readonly milestoneVectors = new Map<string, Float32Array>();
  private readonly done = new Set<string>();
  private readonly options: Required<Omit<GoalPersistenceOptions, 'embedder' | 'selfHealWindow'>> & { embedder?: SyncEmbedder; selfHealWindow?: number };
  private watches: Array<{ action: CorrectionAction; index: number }> = [];
  private readonly seenDeviations = new Set<string>();
  private readonly repeats = new Set<string>();
  private index = -1;
  private judged = 0;
  private serving = 0;
  private byRule = 0;
  private deviationCount = 0;
  private episodeStart: number | null = null;
  private episodes = 0;
  private returned = 0;
  private returnSteps = 0;
  private readonly tokens = { all: 0, serving: 0 };
  private readonly calls = { all: 0, serving: 0 };
  private correctionCount = 0;
  private readonly heals: Partial<Record<CorrectionAction, { healed: number; resolved: number }>> = {};
  private recent: boolean[] = [];
  private lastMilestone: string | null = null;
  private lastProgress = 0;
  private firstOutput: AnchorProgress | undefined;
  private finalOutput: { progress: AnchorProgress; seq: number } | undefined;
  private points: PersistencePoint[] = [];
  private stride = 1;
  private sinceKept = 0;

  constructor(
    private readonly map: Pick<CognitiveMap, 'anchors'> & { milestones?: readonly Pick<Milestone, 'id' | 'description'>[] },
    options: GoalPersistenceOptions = {},
  ) {
    this.options = {
      similarityThreshold: options.similarityThreshold ?? 0.2,
      minSharedTerms: options.minSharedTerms ?? 2,
      window: Math.max(1, options.window ?? 10),
      maxCurvePoints: Math.max(2, options.maxCurvePoints ?? 500),
      ...(options.embedder ? { embedder: options.embedder } : {}),
      ...(options.selfHealWindow !== undefined ? { selfHealWindow: Math.max(1, options.selfHealWindow) } : {}),
    };
    this.progress = emptyProgress(map.anchors);
    this.anchorTerms = map.anchors.map((a) => contentTerms(anchorText(a)));
    const embedder = options.embedder;
    this.anchorVectors = embedder ? map.anchors.map((a) => embedder.embedSync(anchorText(a))) : [];
    for (const m of map.milestones ?? []) {
      this.milestoneTerms.set(m.id, contentTerms(m.description));
      if (embedder) this.milestoneVectors.set(m.id, embedder.embedSync(m.description));
    }
  }

  onStep(step: StepEvent, marks: StepMarks = {}): void {
    this.index++;
    const fresh = (marks.deviations ?? []).filter((d) => !this.seenDeviations.has(d.eventId));
    for (const d of fresh) this.seenDeviations.add(d.eventId);
    this.deviationCount += fresh.length;
    const current = this.currentMilestone(marks.milestoneId);

    const before = this.progress;
    this.progress = updateAnchorProgress(this.map.anchors, before, step);
    const anchorMoved = this.map.anchors.some((a) => (this.progress[a.id]?.count ?? 0) > (before[a.id]?.count ?? 0) && anchorStatus(a, before[a.id]?.count ?? 0) !== 'met');
    const milestoneDone = step.kind === 'milestone' && step.milestone.status === 'done' ? step.milestone.id : undefined;
    if (milestoneDone) this.done.add(milestoneDone);
    const movedOn = marks.milestoneId != null && this.lastMilestone !== null && marks.milestoneId !== this.lastMilestone;
    const rose = marks.progress !== undefined && !movedOn && marks.progress > this.lastProgress;
    if (marks.milestoneId != null) this.lastMilestone = marks.milestoneId;
    if (marks.progress !== undefined) this.lastProgress = marks.progress;
    const progressed = anchorMoved || milestoneDone !== undefined || movedOn || rose;

    this.readOutput(step);
    const verdict = this.judge(step, current, anchorMoved, milestoneDone !== undefined);

    // A deviation opens an episode unless one is open; progress closes it (the return).
    if (progressed && this.episodeStart !== null) {
      this.returned++;
      this.returnSteps += this.index - this.episodeStart;
      this.episodeStart = null;
    }
    if (fresh.length > 0 && this.episodeStart === null) {
      this.episodeStart = this.index;
      this.episodes++;
    }
    if (progressed) this.repeats.clear();
    this.settleWatches(progressed);

    if (verdict) {
      this.judged++;
      if (verdict.byRule) this.byRule++;
      if (verdict.serves) this.serving++;
      this.recent.push(verdict.serves);
      if (this.recent.length > this.options.window) this.recent.shift();
      const used = (step.usage?.inputTokens ?? 0) + (step.usage?.outputTokens ?? 0);
      this.tokens.all += used;
      if (verdict.serves) this.tokens.serving += used;
      if (step.kind === 'action') {
        this.calls.all++;
        if (verdict.serves) this.calls.serving++;
      }
    }
    const corrections = (marks.corrections ?? []).map((c) => c.action);
    this.correctionCount += corrections.length;
    if (this.options.selfHealWindow !== undefined) for (const action of corrections) if (action !== 'freeze') this.watches.push({ action, index: this.index });
    if (verdict || fresh.length > 0 || corrections.length > 0 || milestoneDone) {
      this.addPoint({
        index: this.index,
        seq: step.seq,
        consistency: ratio(this.serving, this.judged),
        window: ratio(this.recent.filter(Boolean).length, this.recent.length),
        ...(fresh.length > 0 ? { deviations: fresh.map((d) => d.detector) } : {}),
        ...(corrections.length > 0 ? { corrections } : {}),
        ...(milestoneDone ? { milestone: milestoneDone } : {}),
      });
    }
  }

  /** Watches opened by corrections: healed on progress, not healed once the window has passed. */
  private settleWatches(progressed: boolean): void {
    const window = this.options.selfHealWindow;
    if (window === undefined || this.watches.length === 0) return;
    this.watches = this.watches.filter((w) => {
      if (w.index === this.index) return true;
      if (progressed) this.onSelfHeal({ action: w.action, healed: true, steps: this.index - w.index });
      else if (this.index - w.index >= window) this.onSelfHeal({ action: w.action, healed: false, steps: window });
      else return true;
      return false;
    });
  }

  onSelfHeal(outcome: SelfHealMark): void {
    const rung = (this.heals[outcome.action] ??= { healed: 0, resolved: 0 });
    rung.resolved++;
    if (outcome.healed) rung.healed++;
  }

  report(): GoalPersistenceReport {
    const anchors: GoalPersistenceReport['anchors'] = {};
    let met = 0;
    for (const anchor of this.map.anchors) {
      const finalCount = this.finalOutput?.progress[anchor.id]?.count ?? 0;
      const metAtEnd = this.finalOutput !== undefined && anchorStatus(anchor, finalCount) === 'met';
      const metFirst = this.firstOutput !== undefined && anchorStatus(anchor, this.firstOutput[anchor.id]?.count ?? 0) === 'met';
      const outcome: AnchorOutcome = !metAtEnd ? 'missed' : metFirst ? 'met' : 'metLate';
      if (metAtEnd) met++;
      anchors[anchor.id] = { target: anchor.target, comparator: anchor.comparator, finalCount, reachedCount: this.progress[anchor.id]?.count ?? 0, outcome };
    }
    let healed = 0;
    let resolved = 0;
    const selfHealByRung: GoalPersistenceReport['selfHealByRung'] = {};
    for (const [action, h] of Object.entries(this.heals) as Array<[CorrectionAction, { healed: number; resolved: number }]>) {
      healed += h.healed;
      resolved += h.resolved;
      selfHealByRung[action] = { ...h, rate: h.resolved === 0 ? null : h.healed / h.resolved };
    }
    return {
      steps: this.index + 1,
      judgedSteps: this.judged,
      anchorRecall: this.map.anchors.length === 0 ? null : met / this.map.anchors.length,
      anchors,
      finalOutputSeq: this.finalOutput?.seq ?? null,
      trajectoryConsistency: ratio(this.serving, this.judged),
      ruleCoverage: ratio(this.byRule, this.judged),
      deviations: this.deviationCount,
      deviationEpisodes: this.episodes,
      returned: this.returned,
      meanReturnLength: this.returned === 0 ? null : this.returnSteps / this.returned,
      resourceEfficiency: {
        tokens: this.tokens.all === 0 ? null : this.tokens.serving / this.tokens.all,
        calls: this.calls.all === 0 ? null : this.calls.serving / this.calls.all,
      },
      corrections: this.correctionCount,
      selfHealRate: resolved === 0 ? null : healed / resolved,
      selfHealByRung,
      curve: [...this.points],
    };
  }

  private currentMilestone(localized: string | null | undefined): string | undefined {
    if (localized != null) return localized;
    return this.map.milestones?.find((m) => !this.done.has(m.id))?.id;
  }

  /** The agent's outputs: the anchors are read from the last; the first tells whether one was met late. */
  private readOutput(step: StepEvent): void {
    const output = finalOutputText(step);
    if (output === undefined) return;
    const asMessage: StepEvent = { ...step, kind: 'message', message: { role: 'assistant', type: 'output', text: output } } as StepEvent;
    const progress = updateAnchorProgress(this.map.anchors, emptyProgress(this.map.anchors), asMessage);
    this.firstOutput ??= progress;
    this.finalOutput = { progress, seq: step.seq };
  }

  private judge(step: StepEvent, milestoneId: string | undefined, anchorMoved: boolean, milestoneDone: boolean): Verdict | undefined {
    if (step.kind === 'milestone') return milestoneDone ? { serves: true, byRule: true } : step.milestone.status === 'failed' ? { serves: false, byRule: true } : undefined;
    if (anchorMoved) return { serves: true, byRule: true };
    const text = judgedText(step);
    if (!text) return undefined;
    const fingerprint = `${step.kind}\u0000${text}`;
    if (this.repeats.has(fingerprint)) return { serves: false, byRule: true };
    if (this.repeats.size >= MAX_REMEMBERED) this.repeats.clear();
    this.repeats.add(fingerprint);
    const open = this.map.anchors.map((a, i) => ({ a, i })).filter(({ a }) => anchorStatus(a, this.progress[a.id]?.count ?? 0) !== 'met');
    const terms = contentTerms(text);
    const targets = [...open.map(({ i }) => this.anchorTerms[i]), ...(milestoneId ? [this.milestoneTerms.get(milestoneId)] : [])];
    if (targets.some((t) => t !== undefined && sharedTerms(terms, t) >= this.options.minSharedTerms)) return { serves: true, byRule: true };
    const embedder = this.options.embedder;
    const vectors = [...open.map(({ i }) => this.anchorVectors[i]), ...(milestoneId && this.milestoneVectors.has(milestoneId) ? [this.milestoneVectors.get(milestoneId)!] : [])];
    if (!embedder || vectors.length === 0) return { serves: false, byRule: false };
    const vector = embedder.embedSync(text);
    return { serves: vectors.some((v) => cosine(v, vector) >= this.options.similarityThreshold), byRule: false };
  }

  /** Keeps the curve bounded: every stride-th point, doubling the stride when full; marked points always. */
  private addPoint(point: PersistencePoint): void {
    const marked = point.deviations !== undefined || point.corrections !== undefined || point.milestone !== undefined;
    this.sinceKept++;
    if (!marked && this.sinceKept < this.stride) return;
    this.sinceKept = 0;
    this.points.push(point);
    if (this.points.length > this.options.maxCurvePoints) {
      this.stride *= 2;
      this.points = this.points.filter((p, i) => p.deviations !== undefined || p.corrections !== undefined || p.milestone !== undefined || i % 2 === 0);
    }
  }
}

/**
 * What an agent hands over as its result: an output message, a "Final Answer:" message, a `final_answer`
 * tool call with arguments, or code that calls `final_answer(…)`.
 */
export function finalOutputText(step: StepEvent): string | undefined {
  if (step.kind === 'message' && step.message.role === 'assistant') {
    if (step.message.type === 'output' || /^\s*final answer\s*:/i.test(step.message.text)) return step.message.text;
    return undefined;
  }
  if (step.kind === 'action' && step.action.tool === 'final_answer') return argsText(step.action.args).trim() || undefined;
  // Code agents (smolagents) answer by calling final_answer(...) inside their code.
  if (step.kind === 'action' && typeof step.action.args['code'] === 'string') {
    const at = step.action.args['code'].lastIndexOf('final_answer(');
    if (at >= 0) return step.action.args['code'].slice(at + 'final_answer('.length).replace(/\)\s*$/, '');
  }
  return undefined;
}

/** Argument terms of an action (its tool name included), result terms of an observation, a message's words. */
function judgedText(step: StepEvent): string | undefined {
  if (step.kind === 'action') return `${step.action.tool.replace(/_/g, ' ')} ${argsText(step.action.args)}`.trim();
  return stepText(step)?.text || undefined;
}

function anchorText(anchor: Anchor): string {
  return `${anchor.text} ${anchor.unit}`;
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}
