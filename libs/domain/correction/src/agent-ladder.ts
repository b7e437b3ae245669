/**
 * Per-agent ladder state kept by the correction engine: the position as last localized, one ladder per
 * milestone (corrections and rollbacks used, the open episode, the last rung used per pattern for
 * relapses), pending self-heal watches, and the bounded history an escalation report needs.
 */
import { compositeKey, type Correction, type Deviation, type Escalation } from '@wayfinder/contracts';
import type { Rung } from './ladder';
import type { ProgressMark, SelfHealOutcome } from './self-heal';

/** The escalation contract caps its report: 256 deviations, 64 corrections (the freeze is one of them). */
export const MAX_REPORTED_DEVIATIONS = 256;
export const MAX_REPORTED_CORRECTIONS = 63;
const MAX_REMEMBERED_DEVIATION_IDS = 512;

/** One deviating stretch inside a milestone, from its first correction until the agent heals. */
export interface Episode {
  rung: Rung;
  patterns: Set<string>;
  loopStartSeq: number;
  lastCorrection: Correction;
  /** Deviations since the last correction of this episode (the next correction cites them). */
  pendingDeviationIds: string[];
}

export interface MilestoneLadder {
  corrections: number;
  rollbacks: number;
  episode?: Episode;
  /** Highest rung used for a pattern in this milestone: a relapse re-enters one rung above it. */
  lastRungByPattern: Map<string, Rung>;
}

export interface SelfHealWatch {
  correction: Correction;
  milestoneKey: string;
  baseline: ProgressMark | undefined;
}

export interface AgentLadder {
  tenantId: string;
  agentId: string;
  taskId: string;
  runId: string | null;
  lastStepSeq: number;
  mark?: ProgressMark;
  completedIds: string[];
  milestones: Map<string, MilestoneLadder>;
  frozen: boolean;
  /** Seq of the agent's latest correction, for the cool-down. */
  lastCorrectionSeq?: number;
  lastFailureReason?: string;
  deviations: Deviation[];
  corrections: Correction[];
  seenDeviationIds: Set<string>;
  /** What the latest deviations that caused something got, by deviation id, to give a redelivery again. */
  decisions: Map<string, { corrections: Correction[]; escalations: Escalation[] }>;
  watches: SelfHealWatch[];
  /** Outcomes decided outside onStep (e.g. at a freeze), handed out by the next onStep. */
  pendingOutcomes: SelfHealOutcome[];
  /** The last verified milestone seen in the positions: where a rollback goes (unless the caller knows better). */
  checkpoint?: LadderCheckpoint;
}

export interface LadderCheckpoint {
  id: string;
  milestoneId: string;
  seq: number;
  /** Milestones completed at that point. */
  completed: number;
}

/** One agent (tenant, agent), in the one composite-key encoding: no ids can make two agents meet. */
export function agentKey(tenantId: string, agentId: string): string {
  return compositeKey(tenantId, agentId);
}

/** One run of an agent (null: no runId), within the agent's ladders. */
export function runKey(runId: string | null | undefined): string {
  return runId === null || runId === undefined ? '' : `r${runId}`;
}

export function newAgentLadder(tenantId: string, agentId: string, taskId: string, runId: string | null): AgentLadder {
  return {
    tenantId,
    agentId,
    taskId,
    runId,
    lastStepSeq: -1,
    completedIds: [],
    milestones: new Map(),
    frozen: false,
    deviations: [],
    corrections: [],
    seenDeviationIds: new Set(),
    decisions: new Map(),
    watches: [],
    pendingOutcomes: [],
  };
}

export function milestoneLadder(agent: AgentLadder, key: string): MilestoneLadder {
  let ladder = agent.milestones.get(key);
  if (!ladder) {
    ladder = { corrections: 0, rollbacks: 0, lastRungByPattern: new Map() };
    agent.milestones.set(key, ladder);
  }
  return ladder;
}

/** Records a deviation id; false when it was already seen (a redelivery). */
export function rememberDeviation(agent: AgentLadder, deviation: Deviation): boolean {
  if (agent.seenDeviationIds.has(deviation.eventId)) return false;
  agent.seenDeviationIds.add(deviation.eventId);
  if (agent.seenDeviationIds.size > MAX_REMEMBERED_DEVIATION_IDS) {
    const oldest = agent.seenDeviationIds.values().next().value;
    if (oldest !== undefined) agent.seenDeviationIds.delete(oldest);
  }
  pushBounded(agent.deviations, deviation, MAX_REPORTED_DEVIATIONS);
  return true;
}

/** Decisions kept per agent for redeliveries (a batch is redelivered soon after it failed, or never). */
const MAX_REMEMBERED_DECISIONS = 8;

export function rememberDecision(agent: AgentLadder, deviationId: string, decision: { corrections: Correction[]; escalations: Escalation[] }): void {
  if (decision.corrections.length === 0 && decision.escalations.length === 0) return;
  agent.decisions.set(deviationId, decision);
  if (agent.decisions.size > MAX_REMEMBERED_DECISIONS) {
    const oldest = agent.decisions.keys().next().value;
    if (oldest !== undefined) agent.decisions.delete(oldest);
  }
}

export function pushBounded<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}
