/**
 * The correction engine (DESIGN §5.4): detectors detect, the engine decides. Per agent and milestone it
 * climbs hint → rollback → replan → freeze while a deviation persists past the tolerance window, lets a
 * healed agent go, re-enters one rung higher on a relapse, caps rollbacks and corrections per milestone,
 * and freezes at once on hard stops. Every decision is a pure function of the events fed in (plus `now`
 * for timestamps), so replays reproduce the same corrections with the same event ids.
 *
 * Steps are measured in `seq` (the agent's own step counter), so the engine needs no clock of its own.
 * Feed each localized step to `onStep` before the deviations it triggered go to `onDeviation`.
 */
import { systemClock } from '@wayfinder/clock';
import {
  CORRECTION_SCHEMA,
  ESCALATION_SCHEMA,
  checkpointId,
  type CognitiveMap,
  type Correction,
  type Deviation,
  type Escalation,
  type PolicySettings,
  type Position,
  type StepEvent,
} from '@wayfinder/contracts';
import {
  agentKey,
  runKey,
  type AgentLadder,
  type Episode,
  MAX_REPORTED_CORRECTIONS,
  milestoneLadder,
  type MilestoneLadder,
  newAgentLadder,
  pushBounded,
  rememberDecision,
  rememberDeviation,
  type SelfHealWatch,
} from './agent-ladder';
import { decodeLadders, encodeLadders } from './agent-ladder-state';
import { deterministicId } from './event-id';
import { buildHintText } from './hint-text';
import { actionOf, clampRung, CRITICAL, entryRung, isHardStop, MILD, MODERATE, patternOf, type Rung, severityOf } from './ladder';
import { buildReplan, truncate } from './replan';
import { markOf, progressedSince, type SelfHealOutcome } from './self-heal';

export interface CorrectionContext {
  policy: PolicySettings;
  map?: CognitiveMap;
  /**
   * The last verified milestone checkpoint, when the caller knows it (working memory); rollbacks go back
   * to it. Without it, the engine uses the last milestone completed in the positions it was fed.
   */
  lastCheckpoint?: { id: string; milestoneId: string; seq: number };
}

export interface CorrectionStats {
  corrections: number;
  selfHeals: number;
  selfHealFailures: number;
  escalations: number;
}

export interface CorrectionDecision {
  corrections: Correction[];
  escalations: Escalation[];
  /**
   * True for a redelivered deviation: the decision it got the first time, with the same event ids, so a
   * publish that failed is retried and nothing is decided twice. Already counted.
   */
  replayed?: boolean;
}

/** A correction cites at most this many deviations (the ones since the previous correction). */
const MAX_CITED_DEVIATIONS = 64;
const MAX_REASON = 4096;
/** Runs of one agent kept (the newest): late deviations of a run that just ended still find its ladder. */
const MAX_RUNS_PER_AGENT = 3;

type CorrectionBase = Omit<Extract<Correction, { action: 'hint' }>, 'action' | 'hint'>;

export class CorrectionEngine {
  /** agent (tenant, agent) → run → ladder. */
  private readonly agents = new Map<string, Map<string, AgentLadder>>();
  private readonly now: () => number;
  private readonly counters: CorrectionStats = { corrections: 0, selfHeals: 0, selfHealFailures: 0, escalations: 0 };

  constructor(options: { now?: () => number } = {}) {
    this.now = options.now ?? systemClock.now;
  }

  /** Feed every localized step (to see recovery/progress and to count steps). Returns self-heal outcomes. */
  onStep(step: StepEvent, position: Position | undefined, ctx: CorrectionContext): SelfHealOutcome[] {
    const agent = this.agentFor(step.tenantId, step.agentId, step.taskId, step.runId ?? null);
    const outcomes = agent.pendingOutcomes.splice(0);
    if (step.seq <= agent.lastStepSeq) return outcomes; // a redelivered step decides nothing twice
    agent.lastStepSeq = step.seq;
    if (position && position.completed.length > (agent.checkpoint?.completed ?? 0)) {
      const milestoneId = position.completed[position.completed.length - 1];
      agent.checkpoint = { id: checkpointId(step.taskId, milestoneId, step.seq), milestoneId, seq: step.seq, completed: position.completed.length };
    }
    const window = ctx.policy.correction.selfHealWindow;
    const open: SelfHealWatch[] = [];
    for (const watch of agent.watches) {
      if (step.seq <= watch.correction.atSeq) {
        // A step from before the correction (the deviations and the steps are read apart and may arrive
        // in either order): progress made then is not a recovery, and the recovery is measured from there.
        open.push(position ? { ...watch, baseline: markOf(position) } : watch);
      } else if (progressedSince(watch.baseline, step, position)) {
        outcomes.push(this.resolve(agent, watch, step.seq, true));
        this.closeEpisode(agent, watch.milestoneKey);
      } else if (step.seq - watch.correction.atSeq >= window) {
        outcomes.push(this.resolve(agent, watch, step.seq, false));
      } else {
        open.push(watch);
      }
    }
    agent.watches = open;
    if (position) {
      if (agent.mark === undefined && position.milestoneId) adoptUnplacedLadder(agent, position.milestoneId);
      agent.mark = markOf(position);
      agent.completedIds = [...position.completed];
    }
    return outcomes;
  }

  /** Feed a deviation; returns the corrections (and escalations) it causes now (possibly none). */
  onDeviation(deviation: Deviation, context: CorrectionContext): CorrectionDecision {
    const agent = this.agentFor(deviation.tenantId, deviation.agentId, deviation.taskId, deviation.runId);
    const ctx = context.lastCheckpoint || !agent.checkpoint ? context : { ...context, lastCheckpoint: agent.checkpoint };
    if (!rememberDeviation(agent, deviation)) {
      const earlier = agent.decisions.get(deviation.eventId);
      return { corrections: earlier?.corrections ?? [], escalations: earlier?.escalations ?? [], replayed: true };
    }
    const decision = this.decide(agent, deviation, ctx);
    rememberDecision(agent, deviation.eventId, decision);
    return decision;
  }

  private decide(agent: AgentLadder, deviation: Deviation, ctx: CorrectionContext): CorrectionDecision {
    const none: CorrectionDecision = { corrections: [], escalations: [] };
    if (agent.frozen) return none;
    const milestoneId = agent.mark?.milestoneId ?? evidenceMilestone(deviation);
    const key = milestoneId ?? '';
    const ladder = milestoneLadder(agent, key);

    if (isHardStop(deviation)) {
      return this.freeze(agent, ladder, deviation, ctx, `Hard stop (${deviation.detector}): ${deviation.message}`);
    }
    if (this.isExploration(agent, deviation, ctx)) return none;

    const settings = ctx.policy.correction;
    const pattern = patternOf(deviation);
    const episode = ladder.episode;
    if (episode) {
      episode.patterns.add(pattern);
      pushBounded(episode.pendingDeviationIds, deviation.eventId, MAX_CITED_DEVIATIONS);
      episode.loopStartSeq = Math.min(episode.loopStartSeq, deviation.loopStartSeq);
    }
    const sinceLastCorrection = agent.lastCorrectionSeq === undefined ? Infinity : deviation.atSeq - agent.lastCorrectionSeq;
    if (sinceLastCorrection < settings.cooldownSteps) return none;

    let target: Rung;
    let failureReason: string;
    let relapse = false;
    if (episode) {
      const last = episode.lastCorrection;
      const persisted = deviation.atSeq - last.atSeq >= settings.toleranceSteps;
      target = clampRung(Math.max(persisted ? episode.rung + 1 : episode.rung, entryRung(deviation)));
      if (target <= episode.rung) return none; // still inside the tolerance window
      failureReason =
        `${last.action} at seq ${last.atSeq} did not heal the agent: ${deviation.detector} (${deviation.level}) ` +
        `persisted at seq ${deviation.atSeq}: ${deviation.message}`;
    } else {
      const lastRung = ladder.lastRungByPattern.get(pattern);
      relapse = lastRung !== undefined;
      target = clampRung(Math.max(relapse ? (lastRung as number) + 1 : MILD, entryRung(deviation)));
      failureReason = relapse
        ? `relapse after a self-heal (last rung ${severityOf(lastRung as Rung)}): ${deviation.detector} at seq ${deviation.atSeq}: ${deviation.message}`
        : `${deviation.detector} (${deviation.level}) at seq ${deviation.atSeq}: ${deviation.message}`;
    }

    if (target < CRITICAL && ladder.corrections >= settings.maxCorrectionsPerMilestone) {
      const limit = `correction limit reached: ${ladder.corrections} corrections on milestone ${milestoneId ?? '(unknown)'} (max ${settings.maxCorrectionsPerMilestone})`;
      return this.freeze(agent, ladder, deviation, ctx, `${limit}; ${failureReason}`);
    }
    if (target === MODERATE && ladder.rollbacks >= settings.maxRollbacksPerMilestone) {
      const limit = `rollback limit reached: ${ladder.rollbacks} rollbacks on milestone ${milestoneId ?? '(unknown)'} (max ${settings.maxRollbacksPerMilestone})`;
      return this.freeze(agent, ladder, deviation, ctx, `${limit}; ${failureReason}`);
    }
    if (target === CRITICAL) {
      return this.freeze(agent, ladder, deviation, ctx, `Ladder exhausted: ${failureReason}`);
    }

    const correction = this.correctionAt(target, agent, deviation, ctx, milestoneId, episode, failureReason, relapse);
    this.failOpenWatches(agent, key, deviation.atSeq);
    ladder.corrections += 1;
    if (correction.action === 'rollback') ladder.rollbacks += 1;
    ladder.episode = {
      rung: target,
      patterns: episode?.patterns ?? new Set([pattern]),
      loopStartSeq: episode?.loopStartSeq ?? deviation.loopStartSeq,
      lastCorrection: correction,
      pendingDeviationIds: [],
    };
    agent.lastCorrectionSeq = deviation.atSeq;
    if (episode || relapse) agent.lastFailureReason = failureReason;
    pushBounded(agent.corrections, correction, MAX_REPORTED_CORRECTIONS);
    agent.watches.push({ correction, milestoneKey: key, baseline: agent.mark });
    this.counters.corrections += 1;
    return { corrections: [correction], escalations: [] };
  }

  stats(): CorrectionStats {
    return { ...this.counters };
  }

  /** Why the agent's last correction did not hold: for the next STATE block (DESIGN §5.4). */
  failureReason(tenantId: string, agentId: string, runId?: string | null): string | undefined {
    return this.agents.get(agentKey(tenantId, agentId))?.get(runKey(runId))?.lastFailureReason;
  }

  isFrozen(tenantId: string, agentId: string, runId?: string | null): boolean {
    return this.agents.get(agentKey(tenantId, agentId))?.get(runKey(runId))?.frozen ?? false;
  }

  /**
   * Unfreezes an agent after an escalation (a human resumed it), in every run of the tenant's agent: its
   * ladders start again from the bottom, so its next deviations are corrected again. False when the
   * agent was not frozen here.
   */
  resume(tenantId: string, agentId: string): boolean {
    let resumed = false;
    for (const agent of this.agents.get(agentKey(tenantId, agentId))?.values() ?? []) {
      if (!agent.frozen) continue;
      agent.frozen = false;
      agent.milestones.clear();
      agent.watches = [];
      agent.lastCorrectionSeq = undefined;
      resumed = true;
    }
    return resumed;
  }

  /** Drops one run's ladder (run finished). */
  forget(tenantId: string, agentId: string, runId?: string | null): void {
    const runs = this.agents.get(agentKey(tenantId, agentId));
    runs?.delete(runKey(runId));
    if (runs?.size === 0) this.agents.delete(agentKey(tenantId, agentId));
  }

  /** Drops every run of an agent (evicted, or its partition moved to another instance). */
  forgetAgent(tenantId: string, agentId: string): void {
    this.agents.delete(agentKey(tenantId, agentId));
  }

  /** Agents held in memory. */
  get agentCount(): number {
    return this.agents.size;
  }

  /** The agent's ladders as a versioned document (agent-ladder-state.ts), or undefined when none. */
  exportAgentState(tenantId: string, agentId: string): Uint8Array | undefined {
    const runs = this.agents.get(agentKey(tenantId, agentId));
    return runs && runs.size > 0 ? encodeLadders([...runs.values()]) : undefined;
  }

  /** Replaces the agent's ladders with a stored document; throws when it cannot be read. */
  importAgentState(tenantId: string, agentId: string, state: Uint8Array): void {
    const ladders = decodeLadders(state);
    const runs = new Map<string, AgentLadder>();
    for (const ladder of ladders) {
      if (ladder.tenantId !== tenantId || ladder.agentId !== agentId) throw new Error('correction state: document of another agent');
      runs.set(runKey(ladder.runId), ladder);
    }
    this.agents.set(agentKey(tenantId, agentId), runs);
  }

  private agentFor(tenantId: string, agentId: string, taskId: string, runId: string | null): AgentLadder {
    const key = agentKey(tenantId, agentId);
    let runs = this.agents.get(key);
    if (!runs) this.agents.set(key, (runs = new Map()));
    const run = runKey(runId);
    const existing = runs.get(run);
    // Another task on the same agent and run starts a fresh ladder: its milestones are not this task's.
    if (existing && existing.taskId === taskId) return existing;
    const created = newAgentLadder(tenantId, agentId, taskId, runId);
    // A new run: earlier runs of the agent decide nothing more; keep the last few for late deviations.
    runs.delete(run);
    runs.set(run, created);
    while (runs.size > MAX_RUNS_PER_AGENT) runs.delete(runs.keys().next().value as string);
    return created;
  }

  /**
   * Weakly related steps within the exploration budget are tolerated: a drift warning whose off-track
   * streak (its count) fits in `explorationBudget` × the task's step budget (or the steps seen so far).
   */
  private isExploration(agent: AgentLadder, deviation: Deviation, ctx: CorrectionContext): boolean {
    if (deviation.detector === 'plan_off_goal' && deviation.level === 'warning') return isPlannedExploration(deviation, ctx);
    if (deviation.detector !== 'drift' || deviation.level !== 'warning') return false;
    const steps = ctx.map?.maxSteps ?? Math.max(agent.lastStepSeq + 1, deviation.atSeq + 1);
    const allowance = Math.floor(ctx.policy.correction.explorationBudget * steps);
    return deviation.count <= allowance;
  }

  private base(agent: AgentLadder, deviation: Deviation, action: string, rung: Rung, reason: string, episode?: Episode): CorrectionBase {
    const cited = episode ? [...episode.pendingDeviationIds] : [];
    if (!cited.includes(deviation.eventId)) cited.push(deviation.eventId);
    return {
      schema: CORRECTION_SCHEMA,
      eventId: deterministicId('cor', [agent.tenantId, agent.agentId, agent.runId, deviation.eventId, action]),
      tenantId: agent.tenantId,
      ts: new Date(this.now()).toISOString(),
      agentId: agent.agentId,
      taskId: agent.taskId,
      runId: agent.runId,
      deviationIds: cited.slice(-MAX_CITED_DEVIATIONS),
      severity: severityOf(rung),
      atSeq: deviation.atSeq,
      reason: truncate(reason, MAX_REASON),
    };
  }

  private correctionAt(
    rung: Rung,
    agent: AgentLadder,
    deviation: Deviation,
    ctx: CorrectionContext,
    milestoneId: string | null,
    episode: Episode | undefined,
    failureReason: string,
    relapse: boolean,
  ): Correction {
    const action = actionOf(rung);
    if (action === 'hint') {
      const text = buildHintText({ deviation, map: ctx.map, milestoneId, relapse, failureReason: relapse ? failureReason : undefined });
      return { ...this.base(agent, deviation, action, rung, failureReason, episode), action, hint: { text } };
    }
    if (action === 'rollback') {
      // No verified milestone yet: every step so far is unverified, so the rollback goes back to the start.
      const cp = ctx.lastCheckpoint;
      const where = cp ? `checkpoint ${cp.id} (milestone ${cp.milestoneId}, seq ${cp.seq})` : 'the start of the task';
      const reason = `Roll back to ${where}: ${failureReason}`;
      return {
        ...this.base(agent, deviation, action, rung, reason, episode),
        action,
        rollback: { checkpointId: cp?.id ?? null, milestoneId: cp?.milestoneId ?? null, discardAfterSeq: cp?.seq ?? -1 },
      };
    }
    const replan = buildReplan({ map: ctx.map, currentMilestoneId: milestoneId, completed: agent.completedIds, failureReason });
    return { ...this.base(agent, deviation, 'replan', rung, replan.reason, episode), action: 'replan', replan };
  }

  private freeze(agent: AgentLadder, ladder: MilestoneLadder, deviation: Deviation, ctx: CorrectionContext, why: string): CorrectionDecision {
    const reason = truncate(why, MAX_REASON);
    const escalationId = deterministicId('esc', [agent.tenantId, agent.agentId, agent.runId, deviation.eventId]);
    const correction: Correction = {
      ...this.base(agent, deviation, 'freeze', CRITICAL, reason, ladder.episode),
      action: 'freeze',
      freeze: { escalationId, reason },
    };
    const escalation: Escalation = {
      schema: ESCALATION_SCHEMA,
      eventId: escalationId,
      tenantId: agent.tenantId,
      ts: correction.ts,
      agentId: agent.agentId,
      taskId: agent.taskId,
      runId: agent.runId,
      reason,
      lastVerifiedMilestoneId: ctx.lastCheckpoint?.milestoneId ?? agent.completedIds.at(-1) ?? null,
      loopStartSeq: Math.min(ladder.episode?.loopStartSeq ?? deviation.loopStartSeq, deviation.loopStartSeq),
      deviations: [...agent.deviations],
      correctionsTried: [...agent.corrections],
    };
    agent.frozen = true;
    agent.lastFailureReason = reason;
    // A frozen agent cannot heal: its open watches are failures, handed out by the next onStep.
    for (const watch of agent.watches) agent.pendingOutcomes.push(this.resolve(agent, watch, deviation.atSeq, false));
    agent.watches = [];
    pushBounded(agent.corrections, correction, MAX_REPORTED_CORRECTIONS + 1);
    this.counters.corrections += 1;
    this.counters.escalations += 1;
    return { corrections: [correction], escalations: [escalation] };
  }

  /** A new correction on a milestone means the previous ones there did not heal the agent. */
  private failOpenWatches(agent: AgentLadder, milestoneKey: string, atSeq: number): void {
    const open: SelfHealWatch[] = [];
    for (const watch of agent.watches) {
      if (watch.milestoneKey === milestoneKey) agent.pendingOutcomes.push(this.resolve(agent, watch, atSeq, false));
      else open.push(watch);
    }
    agent.watches = open;
  }

  private closeEpisode(agent: AgentLadder, milestoneKey: string): void {
    const ladder = agent.milestones.get(milestoneKey);
    const episode = ladder?.episode;
    if (!ladder || !episode) return;
    for (const pattern of episode.patterns) {
      const previous = ladder.lastRungByPattern.get(pattern);
      ladder.lastRungByPattern.set(pattern, previous === undefined ? episode.rung : (Math.max(previous, episode.rung) as Rung));
    }
    ladder.episode = undefined;
  }

  private resolve(agent: AgentLadder, watch: SelfHealWatch, atSeq: number, healed: boolean): SelfHealOutcome {
    if (healed) this.counters.selfHeals += 1;
    else this.counters.selfHealFailures += 1;
    const c = watch.correction;
    return {
      tenantId: agent.tenantId,
      agentId: agent.agentId,
      taskId: agent.taskId,
      runId: agent.runId,
      correctionId: c.eventId,
      action: c.action,
      severity: c.severity,
      milestoneId: watch.milestoneKey === '' ? null : watch.milestoneKey,
      correctedAtSeq: c.atSeq,
      resolvedAtSeq: atSeq,
      healed,
      steps: Math.max(0, atSeq - c.atSeq),
    };
  }
}

/** Off-goal sub-goals within the exploration budget's share of the plan are tolerated, like weakly related steps. */
function isPlannedExploration(deviation: Deviation, ctx: CorrectionContext): boolean {
  const total = deviation.evidence['subgoals'];
  if (typeof total !== 'number' || total <= 0) return false;
  return deviation.count <= Math.floor(ctx.policy.correction.explorationBudget * total);
}

function evidenceMilestone(deviation: Deviation): string | null {
  const m = deviation.evidence['milestoneId'] ?? deviation.evidence['milestone'];
  return typeof m === 'string' && m.length > 0 ? m : null;
}

/**
 * Corrections made before the agent's first localized step were counted on a ladder with no milestone.
 * Once its milestone is known, they count against it: the per-milestone limits hold from the first
 * correction, whatever the order in which steps and deviations arrived.
 */
function adoptUnplacedLadder(agent: AgentLadder, milestoneId: string): void {
  const unplaced = agent.milestones.get('');
  if (!unplaced) return;
  agent.milestones.delete('');
  const target = milestoneLadder(agent, milestoneId);
  target.corrections += unplaced.corrections;
  target.rollbacks += unplaced.rollbacks;
  target.episode ??= unplaced.episode;
  for (const [pattern, rung] of unplaced.lastRungByPattern) {
    target.lastRungByPattern.set(pattern, Math.max(rung, target.lastRungByPattern.get(pattern) ?? rung) as Rung);
  }
  for (const watch of agent.watches) if (watch.milestoneKey === '') watch.milestoneKey = milestoneId;
}
