/**
 * `constraint_violation` against the charter (DESIGN §5.1, §5.3): every hard constraint of the task's map,
 * plus those the user added through `feedback` during the run (numbered after the map's), compiled into
 * declarative rules by @wayfinder/cognitive-map. An action breaking a rule, or a final output breaking a
 * format rule, is critical for a hard constraint. A prohibition no rule covers falls back to embedder
 * similarity between the action (tool + args) and the prohibited thing: a warning at or above
 * `policy.constraints.embedderThreshold`. Evidence names the constraint (its id and charter number), the
 * rule and how it was found (`method`: rule | embedder). The dangerous-tool list stays the engine's.
 */
import type { CognitiveMap, JsonValue, Position, StepEvent } from '@wayfinder/contracts';
import {
  argsText,
  checkAction,
  checkOutput,
  compileConstraints,
  countsToward,
  actionPaths,
  type CompiledConstraint,
  type RuleViolation,
  toolCategory,
} from '@wayfinder/cognitive-map';
import type { SyncEmbedder } from '@wayfinder/embeddings';
import type { AgentSlots } from '../state/agent-runs';
import { hash32, hashHex } from '../fingerprint/hash';
import { canonicalJson } from '../fingerprint/normalize';
import type { DetectionContext, DeviationDraft, StepDetector } from '../types';
import { RUN_ID_FIELD } from '../state/agent-runs';
import { addBounded, RunStates, stringArray } from './run-states';
import { textSimilarity, type TextSimilarity } from './text-similarity';

const MAX_PATHS = 128;
const MAX_FEEDBACK = 16;
const MAX_TEXT = 400;
/** Tools whose call is the final output (their string args are the answer). */
const TERMINAL_TOOLS = new Set(['final_answer', 'submit', 'finish', 'answer', 'task_complete', 'complete_task', 'respond']);
/** Prohibition words removed before embedding: the action resembles what is forbidden, not the "never". */
const PROHIBITION_WORDS = /\b(?:must not|mustn't|never|do not|don't|should not|shouldn't|cannot|can't|may not|not allowed|forbidden|prohibited|avoid|no|any|ever)\b|不得|不要|禁止|严禁|切勿|不准|不能|不可|不允许|避免|任何/gi;

interface ConstraintRunState {
  /** The run's id, kept by RunStates (AgentRuns' RunKey: no wrapper per agent). */
  runId: string;
  readPaths: Set<string>;
  ownPaths: Set<string>;
  /** Calls counted per constraint id (count bounds). */
  counts: Map<string, number>;
  /** Violations per constraint id (the deviation's count). */
  violations: Map<string, number>;
  feedback: string[];
}

// Shared empty collections, replaced by the run's own at its first write (DESIGN §7 memory budget: most
// runs never count a bound, violate, or touch a protected path, and four empty collections cost ~600 bytes).
const NO_PATHS: ReadonlySet<string> = new Set<string>();
const NO_COUNTS: ReadonlyMap<string, number> = new Map<string, number>();
const NO_FEEDBACK: readonly string[] = [];

function newState(): ConstraintRunState {
  return { runId: '', readPaths: NO_PATHS as Set<string>, ownPaths: NO_PATHS as Set<string>, counts: NO_COUNTS as Map<string, number>, violations: NO_COUNTS as Map<string, number>, feedback: NO_FEEDBACK as string[] };
}

/** What a run without state reads (never written: a run gets its own state before anything is counted). */
const NO_STATE: ConstraintRunState = Object.freeze(newState());

function ownSet(set: Set<string>): Set<string> {
  return set === NO_PATHS ? new Set<string>() : set;
}

function ownMap(map: Map<string, number>): Map<string, number> {
  return map === NO_COUNTS ? new Map<string, number>() : map;
}

function numberRecord(value: unknown): Map<string, number> {
  const out = new Map<string, number>();
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) if (typeof v === 'number' && Number.isFinite(v)) out.set(k, v);
  }
  return out;
}

function revive(raw: unknown): ConstraintRunState | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const state = newState();
  const readPaths = stringArray(r['readPaths'], MAX_PATHS);
  const ownPaths = stringArray(r['ownPaths'], MAX_PATHS);
  const counts = numberRecord(r['counts']);
  const violations = numberRecord(r['violations']);
  const feedback = stringArray(r['feedback'], MAX_FEEDBACK);
  if (readPaths.length > 0) state.readPaths = new Set(readPaths);
  if (ownPaths.length > 0) state.ownPaths = new Set(ownPaths);
  if (counts.size > 0) state.counts = counts;
  if (violations.size > 0) state.violations = violations;
  if (feedback.length > 0) state.feedback = feedback;
  return state;
}

function normalized(text: string): string {
  return text.toLowerCase().replace(/[\s\p{P}]+/gu, '');
}

export class ConstraintRulesDetector implements StepDetector {
  readonly name = 'constraint_violation' as const;
  private readonly runs = new RunStates<ConstraintRunState>(newState, revive, RUN_ID_FIELD);
  private readonly compiledMaps = new WeakMap<CognitiveMap, CompiledConstraint[]>();
  private readonly similarity: TextSimilarity;

  constructor(embedder: SyncEmbedder) {
    this.similarity = textSimilarity(embedder);
  }

  onStep(step: StepEvent, _position: Position | undefined, ctx: DetectionContext): DeviationDraft[] {
    const settings = ctx.policy.constraints;
    if (!settings.enabled || !settings.rules) return [];
    if (step.kind === 'feedback') {
      this.onFeedback(step.feedback.text, this.runs.of(step), ctx.map);
      return [];
    }
    if (step.kind !== 'action' && !(step.kind === 'message' && step.message.role === 'assistant' && step.message.type === 'output')) return [];
    // A run with nothing to check keeps no state (DESIGN §7 memory budget): created at its first constraint.
    const existing = this.runs.peek(step);
    const constraints = this.constraintsOf(ctx.map, existing ?? NO_STATE);
    if (constraints.length === 0) return [];
    const state = existing ?? this.runs.of(step);
    if (step.kind === 'message') return this.onOutput(step.message.text, constraints, state, step.seq);
    return this.onAction(step.action.tool, step.action.args as Record<string, JsonValue>, constraints, state, settings.embedderThreshold, step.seq);
  }

  exportState(tenantId: string, agentId: string): unknown {
    return this.runs.export(tenantId, agentId, (s) => ({
      readPaths: [...s.readPaths],
      ownPaths: [...s.ownPaths],
      counts: Object.fromEntries(s.counts),
      violations: Object.fromEntries(s.violations),
      feedback: s.feedback,
    }));
  }

  importState(tenantId: string, agentId: string, state: unknown): void {
    this.runs.import(tenantId, agentId, state);
  }

  forget(tenantId: string, agentId: string): void {
    this.runs.forget(tenantId, agentId);
  }

  /** Its per-agent state in the engine's agents (see StepDetector). */
  useAgentSlots(slots: AgentSlots): void {
    this.runs.useAgentSlots(slots);
  }

  private onFeedback(text: string, state: ConstraintRunState, map: CognitiveMap | undefined): void {
    const clean = text.replace(/\s+/g, ' ').trim().slice(0, 2048);
    if (!clean) return;
    const known = [...(map?.constraints ?? []).map((c) => c.text), ...state.feedback].map(normalized);
    if (known.includes(normalized(clean))) return;
    // A new array of the exact length: a pushed-to one reserves room for 16 more.
    state.feedback = state.feedback.concat(clean);
    if (state.feedback.length > MAX_FEEDBACK) state.feedback.shift();
  }

  /** The map's hard constraints in charter order, then the run's feedback constraints under the next numbers. */
  private constraintsOf(map: CognitiveMap | undefined, state: ConstraintRunState): CompiledConstraint[] {
    let fromMap: CompiledConstraint[] = [];
    if (map) {
      const cached = this.compiledMaps.get(map);
      fromMap = cached ?? compileConstraints(map.constraints).filter((c) => c.hard);
      if (!cached) this.compiledMaps.set(map, fromMap);
    }
    if (state.feedback.length === 0) return fromMap;
    const taken = new Set(fromMap.map((c) => c.constraintId));
    let next = fromMap.length + 1;
    const feedback = state.feedback.map((text) => {
      while (taken.has(`c${next}`)) next++;
      const id = `c${next}`;
      taken.add(id);
      return { id, text, hard: true };
    });
    return [...fromMap, ...compileConstraints(feedback, fromMap.length + 1)];
  }

  private onAction(tool: string, args: Record<string, JsonValue>, constraints: CompiledConstraint[], state: ConstraintRunState, threshold: number, seq: number): DeviationDraft[] {
    const drafts: DeviationDraft[] = [];
    const facts = { readPaths: state.readPaths, ownPaths: state.ownPaths };
    let hashed: string | undefined;
    const argsHash = () => (hashed ??= hashHex(hash32(canonicalJson(args ?? {}), hash32(tool))));
    let actionText: string | undefined;
    for (const c of constraints) {
      const broken = checkAction(c, tool, args, facts) ?? this.countViolation(c, tool, state);
      if (broken) {
        drafts.push(this.draft(broken, state, seq, { tool, argsHash: argsHash() }, 'rule'));
        continue;
      }
      if (c.rules.length > 0 || !c.prohibition) continue;
      actionText ??= `${tool.replace(/[_.-]+/g, ' ')} ${argsText(args ?? {})}`.slice(0, 2048);
      const similarity = this.similarity(actionText, c.text.replace(PROHIBITION_WORDS, ' '));
      if (similarity >= threshold) {
        const reason = `"${tool}" resembles what the constraint forbids (similarity ${similarity.toFixed(2)})`;
        drafts.push(this.draft({ constraint: c, rule: { kind: 'forbiddenTool' }, reason }, state, seq, { tool, argsHash: argsHash(), similarity: round(similarity) }, 'embedder'));
      }
    }
    this.learnPaths(tool, args, state);
    if (TERMINAL_TOOLS.has(tool.toLowerCase())) {
      const answer = argsText(args ?? {});
      if (answer.trim()) drafts.push(...this.onOutput(answer, constraints, state, seq, tool));
    }
    return drafts;
  }

  private countViolation(c: CompiledConstraint, tool: string, state: ConstraintRunState): RuleViolation | undefined {
    for (const rule of c.rules) {
      if (rule.kind !== 'countBound' || !countsToward(rule.category, tool)) continue;
      const n = (state.counts.get(c.constraintId) ?? 0) + 1;
      state.counts = ownMap(state.counts);
      state.counts.set(c.constraintId, n);
      if (n > rule.max) return { constraint: c, rule, reason: `call ${n} of ${rule.category ?? 'any'} tools, above the bound of ${rule.max}` };
    }
    return undefined;
  }

  /** Files read are the run's inputs; files written before they were read are its own outputs. */
  private learnPaths(tool: string, args: Record<string, JsonValue>, state: ConstraintRunState): void {
    const category = toolCategory(tool);
    if (category !== 'read' && category !== 'write') return;
    for (const path of actionPaths(args)) {
      if (category === 'read' && !state.ownPaths.has(path)) addBounded((state.readPaths = ownSet(state.readPaths)), path, MAX_PATHS);
      if (category === 'write' && !state.readPaths.has(path)) addBounded((state.ownPaths = ownSet(state.ownPaths)), path, MAX_PATHS);
    }
  }

  private onOutput(text: string, constraints: CompiledConstraint[], state: ConstraintRunState, seq: number, tool?: string): DeviationDraft[] {
    const drafts: DeviationDraft[] = [];
    for (const c of constraints) {
      const broken = checkOutput(c, text);
      if (broken) drafts.push(this.draft(broken, state, seq, { output: text.slice(0, 200), ...(tool && { tool }) }, 'rule'));
    }
    return drafts;
  }

  private draft(v: RuleViolation, state: ConstraintRunState, seq: number, evidence: Record<string, JsonValue>, method: 'rule' | 'embedder'): DeviationDraft {
    const c = v.constraint;
    const count = (state.violations.get(c.constraintId) ?? 0) + 1;
    state.violations = ownMap(state.violations);
    state.violations.set(c.constraintId, count);
    const text = c.text.slice(0, MAX_TEXT);
    return {
      detector: 'constraint_violation',
      // A rule broken on a hard constraint is a hard stop; an embedder match is a suspicion.
      level: c.hard && method === 'rule' ? 'critical' : 'warning',
      count,
      atSeq: seq,
      loopStartSeq: seq,
      evidence: { ...evidence, constraint: text, constraintId: c.constraintId, constraintNumber: c.number, rule: v.rule.kind, method, reason: v.reason },
      message: `Constraint ${c.number} ("${text}") broken: ${v.reason}.`,
    };
  }
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
