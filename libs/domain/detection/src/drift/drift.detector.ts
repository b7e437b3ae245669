/**
 * `drift` (DESIGN §5.3): is the agent's work still about its current milestone and its final goal?
 *
 * Two relevance curves per run: the exponential moving average of the cosine between each scored step
 * (an action's tool and argument text, an assistant message) and (a) the current milestone — the map's
 * milestone at the localized position, or without a map the run's own latest plan — and (b) the goal —
 * the map's goal, or without a map the first user message of the run, else its first assistant message.
 * A curve that stays below its threshold (`policy.drift.milestoneThreshold` / `goalThreshold`) for
 * `toleranceSteps` scored steps is a warning naming that curve; the goal curve low for twice the window
 * is critical. A curve re-arms once it recovers.
 *
 * A third, rule-based check covers the commonest drift in real traces (TRAIL "goal deviation"): the run
 * wrote a plan that calls for looking things up, then gave its final answer without a single tool call
 * in between — it abandoned its plan. Evidence names the curve `plan`.
 *
 * Steps with too little text (page_down, a bare URL) are not scored: their cosine says nothing.
 * State is per tenant/agent/run; O(dimension) per step.
 */
import type { PolicySettings, Position, StepEvent } from '@wayfinder/contracts';
import { cosine, type Embedder } from '@wayfinder/embeddings';
import { argsText, parseGoal } from '@wayfinder/cognitive-map';
import { newCurve, newRunState, type CurveState, type DriftRunState } from './drift-run-state';
import type { DeviationDraft, DriftContext, DriftCurve, DriftStepDetector } from './drift.types';

export interface DriftDetectorOptions {
  /** EMA weight of the newest step (default 0.5): higher reacts faster, lower forgives single odd steps. */
  alpha?: number;
  /** Scored steps needed before the curves may fire (default: the policy's toleranceSteps). */
  warmupSteps?: number;
  /** Steps with fewer word characters than this are not scored (default 24). */
  minTextChars?: number;
  /** Tools that end a run with an answer (default final_answer, submit, finish, answer, task_complete, …). */
  terminalTools?: readonly string[];
  /** Plans with fewer items are not checked for being skipped (default 3). */
  minPlanItems?: number;
  /** Whether the plan-skip rule runs (default true). */
  planSkip?: boolean;
}

const DEFAULT_TERMINAL = ['final_answer', 'submit', 'finish', 'answer', 'task_complete', 'complete_task', 'done'];
/** A plan step that needs outside information: the agent cannot honestly skip it. */
const LOOKUP = /\b(?:search|web|gather\w*|research\w*|look(?:ing)? ?up|retriev\w*|brows\w*|visit\w*|consult\w*|online|website|database|wikipedia|google|internet|query|queries|navigate|download\w*|fetch\w*|crawl\w*|scrap\w*|api|source[sd]?)\b|搜索|检索|查询|查找|浏览|访问|下载|抓取|数据源|网站|网页/i;
const TERMINAL_CALL = /\bfinal_answer\s*\(/;
const PLAN_MIN_ITEMS_FOR_REFERENCE = 2;

type StateKey = string;

export class DriftDetector implements DriftStepDetector {
  readonly name = 'drift' as const;
  private readonly runs = new Map<StateKey, DriftRunState>();
  private readonly alpha: number;
  private readonly minTextChars: number;
  private readonly terminal: Set<string>;
  private readonly minPlanItems: number;
  private readonly planSkip: boolean;

  constructor(
    private readonly embedder: Embedder,
    private readonly options: DriftDetectorOptions = {},
  ) {
    this.alpha = options.alpha ?? 0.5;
    this.minTextChars = options.minTextChars ?? 24;
    this.terminal = new Set((options.terminalTools ?? DEFAULT_TERMINAL).map((t) => t.toLowerCase()));
    this.minPlanItems = options.minPlanItems ?? 3;
    this.planSkip = options.planSkip ?? true;
  }

  onStep(step: StepEvent, position: Position | undefined, ctx: DriftContext): DeviationDraft[] {
    const settings = ctx.policy.drift;
    if (!settings.enabled) return [];
    const state = this.stateOf(step);
    const map = ctx.map;
    // The map's goal outranks whatever the run said first; it is embedded once per run.
    if (map && state.goal?.source !== 'map') state.goal = { vector: this.embedder.embed(map.goal), source: 'map', seq: step.seq };
    this.trackMilestone(state, position, ctx);

    if (step.kind === 'plan') {
      this.setPlan(state, step.plan.subgoals.map((s) => s.text), step.seq);
      return [];
    }
    if (step.kind === 'message') {
      const { role, text } = step.message;
      if (role === 'user' && (!state.goal || state.goal.source === 'assistant')) {
        state.goal = { vector: this.embedder.embed(text), source: 'user', seq: step.seq };
        return [];
      }
      if (role !== 'assistant') return [];
      if (!state.goal) {
        state.goal = { vector: this.embedder.embed(text), source: 'assistant', seq: step.seq };
        return [];
      }
      const items = planItems(text);
      if (items.length >= PLAN_MIN_ITEMS_FOR_REFERENCE) {
        this.setPlan(state, items, step.seq, text);
        return [];
      }
      return this.score(state, text, step.seq, settings, position);
    }
    if (step.kind !== 'action') return [];

    const out: DeviationDraft[] = [];
    if (this.terminal.has(step.action.tool.toLowerCase())) {
      const skipped = this.checkPlanSkip(state, step.seq, position);
      if (skipped) out.push(skipped);
    } else if (!TERMINAL_CALL.test(argsText(step.action.args).slice(0, 4000))) {
      // Code that only hands in the answer is not work; tools it calls arrive as their own actions.
      state.work++;
    }
    // The tool name is the same for on- and off-topic calls: only the arguments say what the call is about.
    out.push(...this.score(state, argsText(step.action.args), step.seq, settings, position));
    return out;
  }

  /**
   * Serializable state of every run of an agent, for the engine to persist. Vectors are quantized to
   * int8 (base64) so a run costs about 1 KB rather than 6 KB of JSON floats; cosine moves by < 0.01.
   */
  exportState(tenantId: string, agentId: string): unknown {
    const prefix = `${tenantId}\u0000${agentId}\u0000`;
    const out: Record<string, unknown> = {};
    for (const [key, s] of this.runs) {
      if (!key.startsWith(prefix)) continue;
      out[key.slice(prefix.length)] = JSON.parse(JSON.stringify(s, (_k, v: unknown) => (v instanceof Float32Array ? quantize(v) : v)));
    }
    return out;
  }

  importState(tenantId: string, agentId: string, state: unknown): void {
    if (!state || typeof state !== 'object') return;
    for (const [run, raw] of Object.entries(state as Record<string, unknown>)) {
      const revived = JSON.parse(JSON.stringify(raw), (_k, v: unknown) => (isQuantized(v) ? dequantize(v) : v)) as DriftRunState;
      this.runs.set(`${tenantId}\u0000${agentId}\u0000${run}`, { ...newRunState(), ...revived });
    }
  }

  forget(tenantId: string, agentId: string): void {
    const prefix = `${tenantId}\u0000${agentId}\u0000`;
    for (const key of [...this.runs.keys()]) if (key.startsWith(prefix)) this.runs.delete(key);
  }

  private stateOf(step: StepEvent): DriftRunState {
    const key = `${step.tenantId}\u0000${step.agentId}\u0000${step.runId ?? ''}`;
    let s = this.runs.get(key);
    if (!s) {
      s = newRunState();
      this.runs.set(key, s);
    }
    return s;
  }

  private trackMilestone(state: DriftRunState, position: Position | undefined, ctx: DriftContext): void {
    const id = position?.milestoneId ?? undefined;
    if (!ctx.map || !id || id === state.milestoneId) return;
    const milestone = ctx.map.milestones.find((m) => m.id === id);
    if (!milestone) return;
    state.milestoneId = id;
    state.milestoneVector = this.embedder.embed(milestone.description);
    // A new milestone is a new reference: its curve starts over.
    state.milestoneCurve = newCurve();
  }

  private setPlan(state: DriftRunState, items: string[], seq: number, text = items.join('\n')): void {
    // A re-plan after some work does not reset the work count: the rule is about runs that never worked.
    state.plan = { vector: this.embedder.embed(text), items: items.length, callsForLookup: LOOKUP.test(text), seq };
    if (!state.milestoneId) state.milestoneCurve = newCurve();
  }

  private checkPlanSkip(state: DriftRunState, seq: number, position: Position | undefined): DeviationDraft | undefined {
    if (!this.planSkip || state.planSkipFired || !state.plan) return undefined;
    if (state.plan.items < this.minPlanItems || !state.plan.callsForLookup || state.work > 0) return undefined;
    state.planSkipFired = true;
    return {
      detector: 'drift',
      level: 'warning',
      count: 1,
      atSeq: seq,
      loopStartSeq: state.plan.seq,
      evidence: { curve: 'plan', planItems: state.plan.items, workBeforeAnswer: 0, milestone: position?.milestoneId ?? null },
      message: `final answer without any tool call in the run, after a ${state.plan.items}-step plan that calls for looking things up: the plan was abandoned`,
    };
  }

  private score(state: DriftRunState, text: string, seq: number, settings: PolicySettings['drift'], position: Position | undefined): DeviationDraft[] {
    if (!state.goal || wordChars(text) < this.minTextChars) return [];
    const v = this.embedder.embed(text);
    state.scored++;
    const warm = state.scored > (this.options.warmupSteps ?? settings.toleranceSteps);
    const out: DeviationDraft[] = [];
    const goalSim = cosine(v, state.goal.vector);
    const g = this.advance(state.goalCurve, goalSim, settings.goalThreshold, seq);
    const milestoneRef = state.milestoneVector ?? state.plan?.vector;
    const msSim = milestoneRef ? cosine(v, milestoneRef) : undefined;
    const m = msSim === undefined ? undefined : this.advance(state.milestoneCurve, msSim, settings.milestoneThreshold, seq);
    if (!warm) return out;
    const tolerance = settings.toleranceSteps;
    const milestone = position?.milestoneId ?? state.milestoneId ?? null;
    if (m && m.low >= tolerance && m.emitted === 0) {
      m.emitted = 1;
      out.push(this.draft('milestone', 'warning', m, seq, msSim ?? 0, settings.milestoneThreshold, tolerance, milestone));
    }
    const goalLevel = g.low >= 2 * tolerance ? 2 : g.low >= tolerance ? 1 : 0;
    if (goalLevel > g.emitted) {
      g.emitted = goalLevel as 1 | 2;
      out.push(this.draft('goal', goalLevel === 2 ? 'critical' : 'warning', g, seq, goalSim, settings.goalThreshold, tolerance, milestone));
    }
    return out;
  }

  private advance(curve: CurveState, sim: number, threshold: number, seq: number): CurveState {
    curve.ema = curve.ema === undefined ? sim : this.alpha * sim + (1 - this.alpha) * curve.ema;
    if (curve.ema < threshold) {
      if (curve.low === 0) curve.lowSince = seq;
      curve.low++;
    } else {
      curve.low = 0;
      curve.emitted = 0;
    }
    return curve;
  }

  private draft(
    curve: DriftCurve,
    level: 'warning' | 'critical',
    state: CurveState,
    seq: number,
    similarity: number,
    threshold: number,
    window: number,
    milestone: string | null,
  ): DeviationDraft {
    const ema = round(state.ema ?? 0);
    const what = curve === 'goal' ? 'the goal' : milestone ? `milestone ${milestone}` : 'the current plan';
    return {
      detector: 'drift',
      level,
      count: state.low,
      atSeq: seq,
      loopStartSeq: state.lowSince,
      evidence: { curve, ema, similarity: round(similarity), threshold, window, milestone },
      message: `relevance to ${what} stayed below ${threshold} for ${state.low} steps (moving average ${ema})`,
    };
  }
}

function planItems(text: string): string[] {
  // Only an explicit numbered plan counts: prose with "then" is a thought, not a plan.
  // A plan starts with its first item; a thought that lists steps mid-text is not a new plan.
  if (!/^\s*(?:1[.)、]|[(（]1[)）]|步骤一|第一步|step 1\b)/i.test(text)) return [];
  const parsed = parseGoal(text);
  return parsed.strategy === 'numbered' ? parsed.milestones.map((m) => m.description) : [];
}

function wordChars(text: string): number {
  return text.replace(/https?:\/\/\S+/g, '').replace(/[^\p{L}\p{N}]/gu, '').length;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

interface Quantized {
  q8: string;
  scale: number;
}

function quantize(v: Float32Array): Quantized {
  let max = 0;
  for (const x of v) max = Math.max(max, Math.abs(x));
  const scale = max > 0 ? max / 127 : 1;
  const bytes = new Int8Array(v.length);
  for (let i = 0; i < v.length; i++) bytes[i] = Math.round(v[i] / scale);
  return { q8: Buffer.from(bytes.buffer).toString('base64'), scale };
}

function isQuantized(v: unknown): v is Quantized {
  return !!v && typeof v === 'object' && typeof (v as Quantized).q8 === 'string' && typeof (v as Quantized).scale === 'number';
}

function dequantize(v: Quantized): Float32Array {
  const buf = Buffer.from(v.q8, 'base64');
  const bytes = new Int8Array(buf.buffer, buf.byteOffset, buf.length);
  const out = new Float32Array(bytes.length);
  let norm = 0;
  for (let i = 0; i < bytes.length; i++) {
    out[i] = bytes[i] * v.scale;
    norm += out[i] * out[i];
  }
  // Re-normalize so cosine stays a dot product.
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < out.length; i++) out[i] *= inv;
  return out;
}
