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
 *
 * Embeddings (DESIGN §5.6): the texts are embedded by the embedder the policy chose for drift
 * (`embedders.drift`), read synchronously from a VectorSource that the stream handler filled for the
 * texts `textsFor` lists; the thresholds are that embedder's (`embedders.<name>.drift*Threshold`,
 * hashing: the drift section's). References embedded by another embedder (the policy changed mid-run)
 * are dropped, not compared across spaces.
 */
import type { PolicySettings, Position, StepEvent } from '@wayfinder/contracts';
import { agentKey, type EmbedderName, type EmbeddingRequest, hashingVectors, isSyncEmbedder, type SyncEmbedder, type VectorSource } from '@wayfinder/embeddings';
import { driftThresholds, embedderChoice } from '../policy/embedder-thresholds';
import { argsText, parseGoal } from '@wayfinder/cognitive-map';
import { AgentRuns, type AgentSlots, RUN_ID_FIELD } from '../state/agent-runs';
import { ByteReader, ByteWriter } from '../state/bytes';
import { curveOf, type DriftRunState, GOAL_SOURCES, type GoalSource, int8At, int8Vector, newRunState, resetCurve, setCurve, type CurveState, type Int8Vector } from './drift-run-state';
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
  /**
   * Code-interpreter tools (default python, code, execute_code, …): a call of one is computation, not
   * looking things up, unless its code reads from outside (files, URLs, HTTP); the tools the code calls
   * arrive as their own actions and count.
   */
  codeTools?: readonly string[];
}

const DEFAULT_TERMINAL = ['final_answer', 'submit', 'finish', 'answer', 'task_complete', 'complete_task', 'done'];
/** A plan step that needs outside information: the agent cannot honestly skip it. */
const LOOKUP = /\b(?:\w*search\w*|locate|web|gather\w*|research\w*|look(?:ing)? ?up|retriev\w*|brows\w*|visit\w*|consult\w*|online|website|database|wikipedia|google|internet|query|queries|navigate|download\w*|fetch\w*|crawl\w*|scrap\w*|api|source[sd]?)\b|搜索|检索|查询|查找|浏览|访问|下载|抓取|数据源|网站|网页/i;
const TERMINAL_CALL = /\bfinal_answer\s*\(/;
const DEFAULT_CODE_TOOLS = ['python', 'python_interpreter', 'code', 'execute_code', 'run_code', 'code_interpreter', 'ipython', 'execute_python', 'run_python'];
/** Code that reads from outside the interpreter itself: files, URLs, HTTP, the shell. */
const CODE_READS_OUTSIDE = /\b(?:requests|urllib\w*|httpx|aiohttp|urlopen|open|read_\w+|load\w*|fetch\w*|curl|wget|subprocess|popen|system|listdir|walk|glob|Path)\s*[.(]|https?:\/\//;
/** Code that does nothing but hand in the answer (comment lines aside). */
const ONLY_ANSWER = /^(?:\s*#[^\n]*\n)*\s*final_answer\s*\(/;
const PLAN_MIN_ITEMS_FOR_REFERENCE = 2;
/** Runs kept per agent (least recently used out), as the engine keeps its own. */
const MAX_RUNS = 8;

export class DriftDetector implements DriftStepDetector {
  readonly name = 'drift' as const;
  /** tenant → agent → runId ('' without one) → state: an agent's runs are exported and forgotten together. */
  private readonly agents = new AgentRuns<DriftRunState>(MAX_RUNS, RUN_ID_FIELD);
  private readonly alpha: number;
  private readonly minTextChars: number;
  private readonly terminal: Set<string>;
  private readonly minPlanItems: number;
  private readonly planSkip: boolean;
  private readonly codeTools: Set<string>;
  private readonly vectors: VectorSource;
  /** The step being handled: its embedder choice and agent, for `embed` (detection is synchronous). */
  private current: { choice: EmbedderName; agent: string } = { choice: 'hashing', agent: '' };

  /** `source`: a VectorSource prefetched by the caller, or the hashing embedder for hashing only. */
  constructor(
    source: VectorSource | SyncEmbedder,
    private readonly options: DriftDetectorOptions = {},
  ) {
    this.vectors = isVectorSource(source) ? source : hashingVectors(source);
    this.alpha = options.alpha ?? 0.5;
    this.minTextChars = options.minTextChars ?? 24;
    this.terminal = new Set((options.terminalTools ?? DEFAULT_TERMINAL).map((t) => t.toLowerCase()));
    this.minPlanItems = options.minPlanItems ?? 3;
    this.planSkip = options.planSkip ?? true;
    this.codeTools = new Set((options.codeTools ?? DEFAULT_CODE_TOOLS).map((t) => t.toLowerCase()));
  }

  /**
   * Every text onStep may embed for this step (whatever the run's state): the map's goal and current
   * milestone, a plan's text, a message's text, an action's argument text. Empty with hashing.
   */
  textsFor(step: StepEvent, _position: Position | undefined, ctx: DriftContext): EmbeddingRequest[] {
    if (!ctx.policy.drift.enabled) return [];
    const choice = embedderChoice(ctx.policy, 'drift');
    if (this.vectors.served(choice) === 'hashing') return [];
    const agent = agentKey(step.tenantId, step.agentId);
    const texts: string[] = [];
    // Every milestone of the map, not only the current one: the position is known only after localization.
    if (ctx.map) texts.push(ctx.map.goal, ...ctx.map.milestones.map((m) => m.description));
    if (step.kind === 'plan') texts.push(planText(step.plan.subgoals.map((s) => s.text)));
    else if (step.kind === 'message') texts.push(step.message.text);
    else if (step.kind === 'action') {
      const args = argsText(step.action.args);
      if (wordChars(args) >= this.minTextChars) texts.push(args);
    }
    return texts.map((text) => ({ choice, agent, text }));
  }

  onStep(step: StepEvent, position: Position | undefined, ctx: DriftContext): DeviationDraft[] {
    const policy = ctx.policy;
    const settings = policy.drift;
    if (!settings.enabled) return [];
    const choice = embedderChoice(policy, 'drift');
    const served = this.vectors.served(choice);
    this.current = { choice, agent: served === 'hashing' ? '' : agentKey(step.tenantId, step.agentId) };
    const thresholds = driftThresholds(policy, served);
    const state = this.stateOf(step);
    this.settleCode(step, state);
    const map = ctx.map;
    // The map's goal outranks whatever the run said first; it is embedded once per run.
    if (map && (state.goalVector === undefined || state.goalSource !== 'map')) {
      const vector = this.embed(map.goal);
      if (vector) setGoal(state, toInt8(vector), 'map', step.seq);
    }
    this.trackMilestone(state, position, ctx);

    if (step.kind === 'plan') {
      this.setPlan(state, step.plan.subgoals.map((s) => s.text), step.seq);
      return [];
    }
    if (step.kind === 'message') {
      const { role, text } = step.message;
      if (role === 'user' && (state.goalVector === undefined || state.goalSource === 'assistant')) {
        const vector = this.embed(text);
        if (vector) setGoal(state, toInt8(vector), 'user', step.seq);
        return [];
      }
      if (role !== 'assistant') return [];
      if (state.goalVector === undefined) {
        const vector = this.embed(text);
        if (vector) setGoal(state, toInt8(vector), 'assistant', step.seq);
        return [];
      }
      const items = planItems(text);
      if (items.length >= PLAN_MIN_ITEMS_FOR_REFERENCE) {
        this.setPlan(state, items, step.seq, text);
        return [];
      }
      return this.score(state, text, step.seq, settings, thresholds, position);
    }
    if (step.kind !== 'action') return [];

    const out: DeviationDraft[] = [];
    const tool = step.action.tool.toLowerCase();
    const code = this.codeTools.has(tool) ? argsText(step.action.args).slice(0, 4000) : '';
    if (this.terminal.has(tool) || ONLY_ANSWER.test(code)) {
      // The answer handed in (by the terminal tool, or by code that does nothing else).
      const skipped = this.checkPlanSkip(state, step.seq, position);
      if (skipped) out.push(skipped);
    } else if (code === '' ? !TERMINAL_CALL.test(argsText(step.action.args).slice(0, 4000)) : CODE_READS_OUTSIDE.test(code)) {
      // Looking things up: a tool call, or code that reads from outside.
      state.work++;
    } else if (code !== '') {
      // Code that only computes or prints (a task text it never sends, estimates it hard-codes) is not
      // work by itself; it is when something happens before its output comes back (settleCode).
      state.codePending = true;
    }
    // The tool name is the same for on- and off-topic calls: only the arguments say what the call is about.
    out.push(...this.score(state, argsText(step.action.args), step.seq, settings, thresholds, position));
    return out;
  }

  /**
   * Binary state of every run of the agent (see encodeRuns), for the engine to persist; undefined when
   * it has none. Vectors travel as the int8 they are kept in.
   */
  exportState(tenantId: string, agentId: string): Uint8Array | undefined {
    const runs = this.agents.runs(tenantId, agentId);
    return runs.length > 0 ? encodeRuns(runs) : undefined;
  }

  /** Restores runs from exportState's bytes, or from the JSON object of v1 documents written before them. */
  importState(tenantId: string, agentId: string, state: unknown): void {
    const imported = state instanceof Uint8Array ? decodeDriftState(state) : state && typeof state === 'object' ? legacyRuns(state as Record<string, unknown>) : null;
    if (!imported || imported.size === 0) return;
    const kept = this.agents.runs(tenantId, agentId).filter(([run]) => !imported.has(run));
    this.agents.replace(tenantId, agentId, [...kept, ...imported]);
  }

  forget(tenantId: string, agentId: string): void {
    this.agents.forget(tenantId, agentId);
  }

  /** Agents with drift state (tests and gauges). */
  get agentCount(): number {
    return this.agents.agentCount;
  }

  /** Its per-agent state in the engine's agents (see StepDetector). */
  useAgentSlots(slots: AgentSlots): void {
    this.agents.useAgentSlots(slots);
  }

  private stateOf(step: StepEvent): DriftRunState {
    return this.agents.getOrCreate(step.tenantId, step.agentId, step.runId ?? '', newRunState);
  }

  /**
   * A code step is work when the code called a tool before its output came back: a call of another tool
   * in its run, or a step of another run of the agent (a sub-agent the code started). Its own output
   * coming back first means it only computed.
   */
  private settleCode(step: StepEvent, state: DriftRunState): void {
    const runs = this.agents.runs(step.tenantId, step.agentId);
    if (runs.length > 1) {
      for (const [, other] of runs) {
        if (other !== state && other.codePending) {
          other.codePending = false;
          other.work++;
        }
      }
    }
    if (!state.codePending) return;
    if (step.kind === 'action') {
      // The answer handed in from the code is no lookup.
      state.codePending = false;
      if (!this.terminal.has(String(step.action.tool).toLowerCase())) state.work++;
    } else if (step.kind === 'observation' && this.codeTools.has(String(step.observation.tool).toLowerCase())) {
      state.codePending = false;
    }
  }

  private trackMilestone(state: DriftRunState, position: Position | undefined, ctx: DriftContext): void {
    const id = position?.milestoneId ?? undefined;
    if (!ctx.map || !id || id === state.milestoneId) return;
    const milestone = ctx.map.milestones.find((m) => m.id === id);
    if (!milestone) return;
    const vector = this.embed(milestone.description);
    if (!vector) return;
    state.milestoneId = id;
    state.milestoneVector = toInt8(vector);
    // A new milestone is a new reference: its curve starts over.
    resetCurve(state, 'milestone');
  }

  private setPlan(state: DriftRunState, items: string[], seq: number, text = planText(items)): void {
    const vector = this.embed(text);
    if (!vector) return;
    // A re-plan after some work does not reset the work count: the rule is about runs that never worked.
    state.planVector = toInt8(vector);
    state.planItems = items.length;
    state.planCallsForLookup = LOOKUP.test(text);
    state.planSeq = seq;
    if (!state.milestoneId) resetCurve(state, 'milestone');
  }

  private checkPlanSkip(state: DriftRunState, seq: number, position: Position | undefined): DeviationDraft | undefined {
    if (!this.planSkip || state.planSkipFired || state.planVector === undefined) return undefined;
    if (state.planItems < this.minPlanItems || !state.planCallsForLookup || state.work > 0) return undefined;
    state.planSkipFired = true;
    return {
      detector: 'drift',
      level: 'warning',
      count: 1,
      atSeq: seq,
      loopStartSeq: state.planSeq,
      evidence: { curve: 'plan', planItems: state.planItems, workBeforeAnswer: 0, milestone: position?.milestoneId ?? null },
      message: `final answer without any tool call in the run, after a ${state.planItems}-step plan that calls for looking things up: the plan was abandoned`,
    };
  }

  /** The vector of a text from the embedder serving the current step's choice (undefined: not prefetched). */
  private embed(text: string): Float32Array | undefined {
    return this.vectors.vectorOf(this.current.choice, this.current.agent, text);
  }

  private score(
    state: DriftRunState,
    text: string,
    seq: number,
    settings: PolicySettings['drift'],
    thresholds: { milestoneThreshold: number; goalThreshold: number },
    position: Position | undefined,
  ): DeviationDraft[] {
    if (state.goalVector === undefined || wordChars(text) < this.minTextChars) return [];
    const v = this.embed(text);
    if (!v) return [];
    // References from another embedder (the policy changed mid-run) cannot be compared: drop them.
    if (state.goalVector.length !== v.length) {
      clearGoal(state);
      return [];
    }
    if (state.milestoneVector && state.milestoneVector.length !== v.length) state.milestoneVector = undefined;
    if (state.planVector !== undefined && state.planVector.length !== v.length) clearPlan(state);
    state.scored++;
    const warm = state.scored > (this.options.warmupSteps ?? settings.toleranceSteps);
    const out: DeviationDraft[] = [];
    const goalSim = cosineInt8(v, state.goalVector);
    const g = this.advance(curveOf(state, 'goal'), goalSim, thresholds.goalThreshold, seq);
    const milestoneRef = state.milestoneVector ?? state.planVector;
    const msSim = milestoneRef ? cosineInt8(v, milestoneRef) : undefined;
    const m = msSim === undefined ? undefined : this.advance(curveOf(state, 'milestone'), msSim, thresholds.milestoneThreshold, seq);
    // The curves are copies of the run's fields: written back once their levels are settled.
    if (warm) this.emit(out, g, m, goalSim, msSim, seq, settings, thresholds, position, state);
    setCurve(state, 'goal', g);
    if (m) setCurve(state, 'milestone', m);
    return out;
  }

  /** The deviations of a warm run's curves after a scored step (marks their levels emitted). */
  private emit(
    out: DeviationDraft[],
    g: CurveState,
    m: CurveState | undefined,
    goalSim: number,
    msSim: number | undefined,
    seq: number,
    settings: PolicySettings['drift'],
    thresholds: { milestoneThreshold: number; goalThreshold: number },
    position: Position | undefined,
    state: DriftRunState,
  ): void {
    const tolerance = settings.toleranceSteps;
    const milestone = position?.milestoneId ?? state.milestoneId ?? null;
    if (m && m.low >= tolerance && m.emitted === 0) {
      m.emitted = 1;
      out.push(this.draft('milestone', 'warning', m, seq, msSim ?? 0, thresholds.milestoneThreshold, tolerance, milestone));
    }
    const goalLevel = g.low >= 2 * tolerance ? 2 : g.low >= tolerance ? 1 : 0;
    if (goalLevel > g.emitted) {
      g.emitted = goalLevel as 1 | 2;
      out.push(this.draft('goal', goalLevel === 2 ? 'critical' : 'warning', g, seq, goalSim, thresholds.goalThreshold, tolerance, milestone));
    }
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

function planText(items: string[]): string {
  return items.join('\n');
}

function isVectorSource(source: VectorSource | SyncEmbedder): source is VectorSource {
  return !isSyncEmbedder(source as SyncEmbedder) && typeof (source as VectorSource).vectorOf === 'function';
}

function wordChars(text: string): number {
  return text.replace(/https?:\/\/\S+/g, '').replace(/[^\p{L}\p{N}]/gu, '').length;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function setGoal(s: DriftRunState, vector: Int8Vector, source: GoalSource, seq: number): void {
  s.goalVector = vector;
  s.goalSource = source;
  s.goalSeq = seq;
}

/** No goal (its fields as a new run has them, so a run without one encodes and compares the same). */
function clearGoal(s: DriftRunState): void {
  s.goalVector = undefined;
  s.goalSource = 'map';
  s.goalSeq = 0;
}

function clearPlan(s: DriftRunState): void {
  s.planVector = undefined;
  s.planItems = 0;
  s.planCallsForLookup = false;
  s.planSeq = 0;
}

const enum RunFlag {
  Goal = 1,
  Plan = 2,
  PlanCallsForLookup = 4,
  MilestoneId = 8,
  MilestoneVector = 16,
  PlanSkipFired = 32,
  CodePending = 64,
}

const STATE_VERSION = 1;
const WHAT = 'drift state';
// Shared by every export (they are synchronous; see ByteWriter).
const writer = new ByteWriter();

/**
 * u8 version, u32 runs; per run: runId, u8 flags, u32 work, u32 scored, goal curve, milestone curve,
 * [u8 goal source, f64 seq, goal vector], [u32 items, f64 seq, plan vector], [milestoneId],
 * [milestone vector]. A curve: u8 has-EMA, [f64 ema], u32 low, f64 lowSince, u8 emitted. A vector: u32
 * dimension + one int8 per dimension (the scale is not kept: vectors are re-normalized on import).
 */
function encodeRuns(runs: ReadonlyArray<[string, DriftRunState]>): Uint8Array {
  const w = writer;
  w.reset();
  w.u8(STATE_VERSION);
  w.u32(runs.length);
  for (const [run, s] of runs) {
    w.string(run);
    w.u8(
      (s.goalVector !== undefined ? RunFlag.Goal : 0) |
        (s.planVector !== undefined ? RunFlag.Plan : 0) |
        (s.planVector !== undefined && s.planCallsForLookup ? RunFlag.PlanCallsForLookup : 0) |
        (s.milestoneId !== undefined ? RunFlag.MilestoneId : 0) |
        (s.milestoneVector ? RunFlag.MilestoneVector : 0) |
        (s.planSkipFired ? RunFlag.PlanSkipFired : 0) |
        (s.codePending ? RunFlag.CodePending : 0),
    );
    w.u32(s.work);
    w.u32(s.scored);
    writeCurve(w, s.goalEma, s.goalLow, s.goalLowSince, s.goalEmitted);
    writeCurve(w, s.milestoneEma, s.milestoneLow, s.milestoneLowSince, s.milestoneEmitted);
    if (s.goalVector !== undefined) {
      w.u8(GOAL_SOURCES.indexOf(s.goalSource));
      w.f64(s.goalSeq);
      writeVector(w, s.goalVector);
    }
    if (s.planVector !== undefined) {
      w.u32(s.planItems);
      w.f64(s.planSeq);
      writeVector(w, s.planVector);
    }
    if (s.milestoneId !== undefined) w.string(s.milestoneId);
    if (s.milestoneVector) writeVector(w, s.milestoneVector);
  }
  return w.finish();
}

/** The runs (by runId) in exportState's bytes. */
export function decodeDriftState(bytes: Uint8Array): Map<string, DriftRunState> {
  const r = new ByteReader(bytes, WHAT);
  const version = r.u8();
  if (version !== STATE_VERSION) r.fail(`unsupported version ${version}`);
  const count = r.u32();
  const runs = new Map<string, DriftRunState>();
  for (let i = 0; i < count; i++) {
    const run = r.string();
    const flags = r.u8();
    const s = newRunState();
    s.work = r.u32();
    s.scored = r.u32();
    setCurve(s, 'goal', readCurve(r));
    setCurve(s, 'milestone', readCurve(r));
    if (flags & RunFlag.Goal) {
      const source = GOAL_SOURCES[r.u8()] ?? r.fail('unknown goal source');
      const seq = r.f64();
      setGoal(s, readVector(r), source, seq);
    }
    if (flags & RunFlag.Plan) {
      s.planItems = r.u32();
      s.planSeq = r.f64();
      s.planVector = readVector(r);
      s.planCallsForLookup = (flags & RunFlag.PlanCallsForLookup) !== 0;
    }
    if (flags & RunFlag.MilestoneId) s.milestoneId = r.string();
    if (flags & RunFlag.MilestoneVector) s.milestoneVector = readVector(r);
    s.planSkipFired = (flags & RunFlag.PlanSkipFired) !== 0;
    s.codePending = (flags & RunFlag.CodePending) !== 0;
    runs.set(run, s);
  }
  r.expectEnd();
  return runs;
}

function writeCurve(w: ByteWriter, ema: number | undefined, low: number, lowSince: number, emitted: number): void {
  w.u8(ema === undefined ? 0 : 1);
  if (ema !== undefined) w.f64(ema);
  w.u32(low);
  w.f64(lowSince);
  w.u8(emitted);
}

function readCurve(r: ByteReader): CurveState {
  const curve: CurveState = { ema: undefined, low: 0, lowSince: 0, emitted: 0 };
  if (r.u8() === 1) curve.ema = r.f64();
  curve.low = r.u32();
  curve.lowSince = r.f64();
  const emitted = r.u8();
  if (emitted > 2) r.fail(`curve level ${emitted}`);
  curve.emitted = emitted as CurveState['emitted'];
  return curve;
}

/**
 * A reference vector as the run keeps it: int8 against its largest magnitude (the scale is not kept: only
 * directions are compared). Math.round, branch-free: v[i] * inv is within ±127, so truncating after
 * +128.5 is floor(x + 0.5); ten times faster.
 */
function toInt8(v: Float32Array): Int8Vector {
  let max = 0;
  for (let i = 0; i < v.length; i++) {
    const x = Math.abs(v[i]);
    if (x > max) max = x;
  }
  const inv = max > 0 ? 127 / max : 0;
  const q = toInt8Scratch.length === v.length ? toInt8Scratch : (toInt8Scratch = new Int8Array(v.length));
  for (let i = 0; i < v.length; i++) q[i] = ((v[i] * inv + 128.5) | 0) - 128;
  return int8Vector(q);
}
// Reused by every toInt8 of the same dimension (detection is synchronous).
let toInt8Scratch = new Int8Array(0);

/** Cosine of an L2-normalized vector with an int8 reference (0 when the reference is all zero). */
function cosineInt8(v: Float32Array, q: Int8Vector): number {
  let dot = 0;
  let norm = 0;
  for (let i = 0; i < q.length; i++) {
    const x = int8At(q, i);
    dot += v[i] * x;
    norm += x * x;
  }
  return norm > 0 ? dot / Math.sqrt(norm) : 0;
}

function writeVector(w: ByteWriter, q: Int8Vector): void {
  w.u32(q.length);
  w.byteString(q);
}

function readVector(r: ByteReader): Int8Vector {
  return int8Vector(r.view8(r.u32()));
}

/** Runs from a v1 document: JSON with each vector as base64 int8 and its scale. */
function legacyRuns(state: Record<string, unknown>): Map<string, DriftRunState> {
  const runs = new Map<string, DriftRunState>();
  for (const [run, raw] of Object.entries(state)) {
    const revived = JSON.parse(JSON.stringify(raw), (_k, v: unknown) => (isLegacyVector(v) ? int8Vector(Uint8Array.from(atob(v.q8), (c) => c.charCodeAt(0))) : v)) as LegacyRunState;
    runs.set(run, fromLegacy(revived));
  }
  return runs;
}

/** A run as v1 documents hold it: the goal, the plan and each curve an object of its own. */
interface LegacyRunState {
  goal?: { vector: Int8Vector; source: GoalSource; seq: number };
  plan?: { vector: Int8Vector; items: number; callsForLookup: boolean; seq: number };
  milestoneId?: string;
  milestoneVector?: Int8Vector;
  work?: number;
  scored?: number;
  goalCurve?: Partial<CurveState>;
  milestoneCurve?: Partial<CurveState>;
  planSkipFired?: boolean;
  codePending?: boolean;
}

function fromLegacy(l: LegacyRunState): DriftRunState {
  const s = newRunState();
  if (l.goal) setGoal(s, l.goal.vector, l.goal.source, l.goal.seq);
  if (l.plan) {
    s.planVector = l.plan.vector;
    s.planItems = l.plan.items;
    s.planCallsForLookup = l.plan.callsForLookup;
    s.planSeq = l.plan.seq;
  }
  s.milestoneId = l.milestoneId;
  s.milestoneVector = l.milestoneVector;
  s.work = l.work ?? 0;
  s.scored = l.scored ?? 0;
  const curve = (c: Partial<CurveState> | undefined): CurveState => ({ ema: c?.ema, low: c?.low ?? 0, lowSince: c?.lowSince ?? 0, emitted: c?.emitted ?? 0 });
  setCurve(s, 'goal', curve(l.goalCurve));
  setCurve(s, 'milestone', curve(l.milestoneCurve));
  s.planSkipFired = l.planSkipFired ?? false;
  s.codePending = l.codePending ?? false;
  return s;
}

function isLegacyVector(v: unknown): v is { q8: string; scale: number } {
  return !!v && typeof v === 'object' && typeof (v as { q8?: unknown }).q8 === 'string' && typeof (v as { scale?: unknown }).scale === 'number';
}
