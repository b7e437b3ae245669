/**
 * State localization of one agent on its cognitive map (DESIGN §5.2). Order of trust: the agent's
 * explicit `milestone` signal → the milestones' validators → embedding similarity of the step to the
 * milestone descriptions. The position only moves forward along the DAG: a completed milestone stays
 * completed, and neither a signal nor a similarity match can move the agent back to a milestone that a
 * completed one depends on. Pure: one instance per agent, no I/O; `snapshot()`/`restore` persist it.
 */
import type { CognitiveMap, Milestone, Position, StepEvent } from '@wayfinder/contracts';
import { cosine, type SyncEmbedder } from '@wayfinder/embeddings';
import { anchorCounts, emptyProgress, updateAnchorProgress, type AnchorProgress } from './anchor-progress';
import { topologicalOrder } from './map-validation';
import { stepText } from './step-text';
import { evaluateValidator } from './validators';

export interface LocalizerOptions {
  /** Cosine at or above which a step is attributed to a milestone; calibrated per embedder. */
  similarityThreshold?: number;
  /** How far the best milestone must beat the runner-up before similarity moves the position. */
  similarityMargin?: number;
  /** Steps with less text than this are not matched by similarity (too little signal). */
  minTextChars?: number;
  /** Consecutive steps a new milestone must win before similarity moves there (default 2). */
  confirmSteps?: number;
  /** A cosine at or above which one step is enough to move (default 0.6). */
  strongSimilarity?: number;
}

export interface LocalizerSnapshot {
  mapVersion: number;
  completed: string[];
  current: string | null;
  confidence: number;
  method: Position['method'];
  anchors: AnchorProgress;
}

const DEFAULTS: Required<LocalizerOptions> = {
  similarityThreshold: 0.3,
  similarityMargin: 0.03,
  minTextChars: 12,
  confirmSteps: 2,
  strongSimilarity: 0.6,
};
const SIMILARITY_TEXT_CHARS = 2_000;

export class Localizer {
  private readonly order: string[];
  private readonly byId: Map<string, Milestone>;
  private readonly ancestors: Map<string, Set<string>>;
  private readonly targets: Record<string, number>;
  private readonly options: Required<LocalizerOptions>;
  private vectors?: Map<string, Float32Array>;
  private completed = new Set<string>();
  private current: string | null;
  private confidence = 0;
  private method: Position['method'] = 'unknown';
  private anchors: AnchorProgress;
  /** A forward milestone similarity favoured on the last scored step(s), not yet moved to. */
  private pending?: { id: string; hits: number };

  constructor(
    readonly map: CognitiveMap,
    private readonly embedder?: SyncEmbedder,
    options: LocalizerOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.order = topologicalOrder(map.milestones);
    this.byId = new Map(map.milestones.map((m) => [m.id, m]));
    this.ancestors = new Map(this.order.map((id) => [id, this.collectAncestors(id)]));
    this.targets = Object.fromEntries(map.anchors.map((a) => [a.id, a.target]));
    this.anchors = emptyProgress(map.anchors);
    this.current = this.frontier()[0] ?? null;
  }

  /** Rebuilds a localizer from a snapshot; ids no longer on the map are dropped. */
  static restore(map: CognitiveMap, snapshot: LocalizerSnapshot, embedder?: SyncEmbedder, options?: LocalizerOptions): Localizer {
    const l = new Localizer(map, embedder, options);
    for (const id of snapshot.completed) if (l.byId.has(id)) l.completed.add(id);
    l.current = snapshot.current && l.byId.has(snapshot.current) && !l.completed.has(snapshot.current) ? snapshot.current : (l.frontier()[0] ?? null);
    l.confidence = snapshot.confidence;
    l.method = snapshot.method;
    l.anchors = { ...emptyProgress(map.anchors), ...snapshot.anchors };
    return l;
  }

  snapshot(): LocalizerSnapshot {
    return {
      mapVersion: this.map.version,
      completed: this.order.filter((id) => this.completed.has(id)),
      current: this.current,
      confidence: this.confidence,
      method: this.method,
      anchors: this.anchors,
    };
  }

  get position(): Position {
    const n = this.order.length;
    const reached = this.current ? Math.max(this.completed.size, this.order.indexOf(this.current)) : this.completed.size;
    return {
      milestoneId: this.current,
      completed: this.order.filter((id) => this.completed.has(id)),
      progress: n === 0 ? 1 : Math.min(1, reached / n),
      confidence: this.confidence,
      method: this.method,
    };
  }

  /** Current counts toward each anchor, by anchor id. */
  get anchorCounts(): Record<string, number> {
    return anchorCounts(this.anchors);
  }

  get anchorProgress(): AnchorProgress {
    return this.anchors;
  }

  /** Applies one step and returns the resulting position. */
  onStep(step: StepEvent): Position {
    this.anchors = updateAnchorProgress(this.map.anchors, this.anchors, step);
    if (step.kind === 'milestone') {
      this.applySignal(step.milestone.id, step.milestone.status);
      return this.position;
    }
    if (this.applyValidators(step)) return this.position;
    this.applySimilarity(step);
    return this.position;
  }

  private applySignal(id: string, status: 'started' | 'done' | 'failed'): void {
    if (!this.byId.has(id) || this.isBehind(id)) return;
    if (status === 'done') {
      this.complete(id);
    } else {
      this.current = id;
    }
    this.method = 'signal';
    this.confidence = 1;
  }

  private applyValidators(step: StepEvent): boolean {
    const ctx = { anchorCounts: this.anchorCounts, anchorTargets: this.targets };
    const passed = this.order.filter(
      (id) => !this.isBehind(id) && !this.completed.has(id) && evaluateValidator(this.milestone(id).validator, step, { ...ctx, milestoneId: id }),
    );
    if (passed.length === 0) return false;
    for (const id of passed) this.complete(id);
    this.method = 'validator';
    this.confidence = 0.9;
    return true;
  }

  private applySimilarity(step: StepEvent): void {
    if (!this.embedder || this.current === null) return;
    const st = stepText(step, SIMILARITY_TEXT_CHARS);
    if (!st || st.text.length < this.options.minTextChars) return;
    const behindCurrent = this.ancestors.get(this.current) ?? new Set<string>();
    const candidates = this.order.filter((id) => !this.isBehind(id) && !behindCurrent.has(id));
    const v = this.embedder.embedSync(st.text);
    const vectors = this.milestoneVectors(this.embedder);
    let best: string | undefined;
    let bestScore = -1;
    let second = -1;
    for (const id of candidates) {
      const mv = vectors.get(id);
      if (!mv) continue;
      const s = cosine(v, mv);
      if (s > bestScore) {
        second = bestScore;
        bestScore = s;
        best = id;
      } else if (s > second) second = s;
    }
    if (best === undefined || bestScore < this.options.similarityThreshold) return;
    if (candidates.length > 1 && bestScore - second < this.options.similarityMargin) return;
    if (best !== this.current) {
      // Similarity can only move forward, so a wrong move could never be undone: a move needs either a
      // strong match or the same milestone winning on consecutive scored steps.
      this.pending = this.pending?.id === best ? { id: best, hits: this.pending.hits + 1 } : { id: best, hits: 1 };
      if (bestScore < this.options.strongSimilarity && this.pending.hits < this.options.confirmSteps) return;
    }
    this.pending = undefined;
    this.current = best;
    this.method = 'similarity';
    // Confidence grows with the score and with the lead over the runner-up; similarity never reaches a validator's trust.
    const lead = candidates.length > 1 ? Math.min(1, (bestScore - Math.max(0, second)) * 4) : 0.5;
    this.confidence = Math.min(0.8, Math.max(0.05, bestScore * 0.6 + lead * 0.3));
  }

  private complete(id: string): void {
    this.completed.add(id);
    for (const a of this.ancestors.get(id) ?? []) this.completed.add(a);
    if (this.current === null || this.completed.has(this.current) || this.isBehind(this.current)) {
      this.current = this.frontier()[0] ?? null;
    }
  }

  /** Uncompleted milestones whose dependencies are all completed, in topological order. */
  private frontier(): string[] {
    return this.order.filter((id) => !this.completed.has(id) && this.milestone(id).dependsOn.every((d) => this.completed.has(d)));
  }

  /** A milestone is behind the agent when it is completed or some completed milestone depends on it. */
  private isBehind(id: string): boolean {
    if (this.completed.has(id)) return true;
    for (const c of this.completed) if (this.ancestors.get(c)?.has(id)) return true;
    return false;
  }

  private collectAncestors(id: string): Set<string> {
    const out = new Set<string>();
    const stack = [...(this.byId.get(id)?.dependsOn ?? [])];
    for (let d = stack.pop(); d !== undefined; d = stack.pop()) {
      if (out.has(d)) continue;
      out.add(d);
      stack.push(...(this.byId.get(d)?.dependsOn ?? []));
    }
    return out;
  }

  private milestoneVectors(embedder: SyncEmbedder): Map<string, Float32Array> {
    this.vectors ??= new Map(this.map.milestones.map((m) => [m.id, embedder.embedSync(m.description)]));
    return this.vectors;
  }

  /** Ids come from the validated map, so the lookup cannot miss; the fallback keeps types honest. */
  private milestone(id: string): Milestone {
    return this.byId.get(id) ?? { id, description: id, dependsOn: [], validator: { type: 'marker' } };
  }
}
