/**
 * Writes working and long-term memory from the navigation events (DESIGN §5.5):
 * - a cognitive map becomes the task charter (goal in one sentence, hard constraints numbered); a newer
 *   map keeps the numbers already given and the constraints users added;
 * - a localized step: user feedback is appended to the charter as the next numbered constraint; agent
 *   outputs, milestone evidence and feedback go through the write rules into long-term memory; when a
 *   milestone becomes completed a checkpoint is pushed; STATE is re-rendered and overwritten when it changed;
 * - a rollback correction pops the checkpoint stack down to the named checkpoint and restores its STATE
 *   with the failure reason, which also goes into every STATE until the agent completes a milestone.
 * Every write is idempotent under redelivery: same checkpoint on top, same constraint text, same memory id,
 * STATE never moved back to an older step.
 */
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { CognitiveMap, Correction, LocalizedStep, StepEvent } from '@wayfinder/contracts';
import { emptyProgress, renderState, stepText, updateAnchorProgress } from '@wayfinder/cognitive-map';
import type { Embedder } from '@wayfinder/embeddings';
import {
  appendConstraint,
  appendFeedback,
  charterFromMap,
  createCharter,
  LongTermMemory,
  rollbackTo,
  type AgentScope,
  type Charter,
  type MemoryCandidate,
  type OperationLogEntry,
  type VectorStore,
  type WorkingMemory,
  type WriteDecision,
} from '@wayfinder/memory';
import type { MapCache } from '@wayfinder/service-core';
import { addReference, AgentTrails, appendLog, type AgentTrail } from './agent-trails';
import { MEMORY_MAPS } from './memory-maps';
import { MEMORY_EMBEDDER, MEMORY_OPTIONS, VECTOR_STORE, WORKING_MEMORY } from './tokens';

export interface MemoryRecorderOptions {
  /** The working memory's TTL: an active agent's entries are re-written every quarter of it. Default 24 h. */
  ttlMs?: number;
  now?: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const FAILURE_PREFIX = 'last attempt failed:';
const MAX_CONCLUSION_CHARS = 600;

@Injectable()
export class MemoryRecorder {
  readonly longTerm: LongTermMemory;
  private readonly logger = new Logger('memory');
  private readonly keepAliveEveryMs: number;
  private readonly now: () => number;

  constructor(
    @Inject(WORKING_MEMORY) private readonly working: WorkingMemory,
    @Inject(VECTOR_STORE) store: VectorStore,
    @Inject(MEMORY_EMBEDDER) embedder: Embedder,
    @Inject(MEMORY_MAPS) private readonly maps: MapCache,
    private readonly trails: AgentTrails,
    @Optional() @Inject(MEMORY_OPTIONS) options: MemoryRecorderOptions = {},
  ) {
    this.longTerm = new LongTermMemory(store, embedder);
    this.keepAliveEveryMs = (options?.ttlMs ?? DAY_MS) / 4;
    this.now = options?.now ?? Date.now;
  }

  async onMap(map: CognitiveMap): Promise<void> {
    this.maps.offer(map);
    const scope = { tenantId: map.tenantId, taskId: map.taskId };
    // Atomic: a feedback constraint appended meanwhile by another instance is kept.
    await this.working.updateCharter(scope, (current) => {
      const next = mergeCharter(current, map);
      return !current || JSON.stringify(current) !== JSON.stringify(next) ? next : undefined;
    });
  }

  async onLocalized(localized: LocalizedStep): Promise<void> {
    const { step, position } = localized;
    const scope: AgentScope = { tenantId: step.tenantId, taskId: step.taskId, agentId: step.agentId };
    const trail = await this.trails.get(scope, async () => (await this.working.listCheckpoints(scope)).map((c) => c.milestoneId));
    const runId = step.runId ?? undefined;
    if (trail.runId !== runId) {
      trail.runId = runId;
      trail.lastSeq = -1;
    }
    if (step.seq <= trail.lastSeq) return; // redelivered: everything below was already applied
    const map = position.method === 'unknown' ? undefined : await this.maps.get(step.tenantId, step.taskId);

    let conclusion: string | undefined;
    if (step.kind === 'feedback') {
      await this.appendFeedbackConstraint(scope, step.feedback.text, map);
      // A user correction holds for the whole task, not only the milestone it was given at.
      await this.remember(scope, step, null, { text: step.feedback.text, source: 'feedback', verified: true });
    } else if (step.kind === 'message' && step.message.type === 'output' && step.message.role === 'assistant') {
      const decision = await this.remember(scope, step, position.milestoneId, { text: step.message.text, source: 'conclusion' });
      if (decision.write) {
        conclusion = step.message.text.replace(/\s+/g, ' ').trim().slice(0, MAX_CONCLUSION_CHARS);
        trail.conclusion = conclusion;
        if (decision.kind === 'reference') addReference(trail, conclusion.slice(0, 300));
      }
    } else if (step.kind === 'milestone' && step.milestone.status === 'done' && step.milestone.evidence) {
      await this.remember(scope, step, step.milestone.id, { text: step.milestone.evidence, source: 'milestone_evidence', verified: true });
    }

    const previous = trail.position;
    trail.position = position.method === 'unknown' ? previous : position;
    if (map) {
      trail.anchors = updateAnchorProgress(map.anchors, trail.anchors ?? emptyProgress(map.anchors), step);
      const newlyCompleted = position.completed.filter((id) => !trail.checkpointed.has(id));
      // Progress after a correction: the failure it answered is history now.
      if (newlyCompleted.length > 0) trail.lastFailure = undefined;
      const text = this.renderState(trail, map);
      if (newlyCompleted.length > 0) {
        const milestoneId = position.completed[position.completed.length - 1];
        // The id the correction engine gives this checkpoint (LadderStage), so its rollbacks name ours.
        await this.working.pushCheckpoint(scope, { id: `cp:${step.taskId}:${milestoneId}:${step.seq}`, milestoneId, seq: step.seq, state: text });
        for (const id of newlyCompleted) trail.checkpointed.add(id);
      }
      if (text !== trail.lastStateText && (await this.working.putState(scope, { seq: step.seq, text }))) trail.lastStateText = text;
    }

    await this.keepAlive(scope, trail);
    appendLog(trail, logEntry(step, position.milestoneId, conclusion));
    trail.lastSeq = step.seq;
  }

  /**
   * Entries expire a TTL after their last write, and an agent stuck on one milestone writes neither its
   * charter nor its STATE nor its stack. While it is active, re-write them every quarter of the TTL so a
   * long task does not lose its constraints: same charter, same STATE (an equal seq is accepted), and the
   * top checkpoint pushed again (a no-op that refreshes the stack).
   */
  private async keepAlive(scope: AgentScope, trail: AgentTrail): Promise<void> {
    const now = this.now();
    if (trail.keptAliveAt === undefined) {
      trail.keptAliveAt = now;
      return;
    }
    if (now - trail.keptAliveAt < this.keepAliveEveryMs) return;
    trail.keptAliveAt = now;
    const [charter, state, stack] = await Promise.all([this.working.getCharter(scope), this.working.getState(scope), this.working.listCheckpoints(scope)]);
    if (charter) await this.working.setCharter(scope, charter);
    if (state) await this.working.putState(scope, state);
    const top = stack.at(-1);
    if (top) await this.working.pushCheckpoint(scope, top);
  }

  async onCorrection(correction: Correction): Promise<void> {
    if (correction.action !== 'rollback' && correction.action !== 'replan') return;
    const scope: AgentScope = { tenantId: correction.tenantId, taskId: correction.taskId, agentId: correction.agentId };
    const trail = await this.trails.get(scope, async () => (await this.working.listCheckpoints(scope)).map((c) => c.milestoneId));
    trail.lastFailure = correction.reason;
    let base: string | undefined;
    if (correction.action === 'rollback' && correction.rollback.checkpointId !== null) {
      const checkpoint = await rollbackTo(this.working, scope, correction.rollback.checkpointId);
      if (!checkpoint) this.logger.warn(`tenant ${scope.tenantId} agent ${scope.agentId}: rollback to unknown checkpoint ${correction.rollback.checkpointId}`);
      base = checkpoint?.state;
    }
    const current = await this.working.getState(scope);
    base ??= current?.text;
    if (base === undefined) return; // no STATE yet: the failure goes into the first one rendered
    const text = withFailure(base, correction.reason);
    // Written at least as new as the stored snapshot: the rollback's STATE must win over the discarded steps'.
    if (await this.working.putState(scope, { seq: Math.max(current?.seq ?? 0, correction.atSeq), text })) trail.lastStateText = text;
  }

  private renderState(trail: AgentTrail, map: CognitiveMap): string {
    if (!trail.position) return '';
    return renderState({
      map,
      position: trail.position,
      ...(trail.conclusion !== undefined && { conclusion: trail.conclusion }),
      ...(trail.references.length > 0 && { references: trail.references }),
      ...(trail.lastFailure !== undefined && { lastFailure: trail.lastFailure }),
    });
  }

  private async appendFeedbackConstraint(scope: AgentScope, feedback: string, map: CognitiveMap | undefined): Promise<void> {
    // Atomic: two feedback steps of the same task (two agents, two instances) both get a number.
    await this.working.updateCharter(scope, (stored) => {
      const current = stored ?? (map ? charterFromMap(map) : createCharter(''));
      const next = appendFeedback(current, feedback);
      return next !== current ? next : undefined;
    });
  }

  private async remember(scope: AgentScope, step: StepEvent, milestoneId: string | null, candidate: MemoryCandidate): Promise<WriteDecision> {
    const decision = await this.longTerm.remember({
      tenantId: scope.tenantId,
      taskId: scope.taskId,
      agentId: scope.agentId,
      ...(milestoneId !== null && { milestoneId }),
      candidate,
      at: step.ts,
    });
    if (!decision.write) this.logger.debug(`not remembered (${decision.reasons.join(', ')}): seq ${step.seq} of ${scope.agentId}`);
    return decision;
  }
}

/** The map's charter, keeping the numbers (and user constraints) of the charter already stored. */
export function mergeCharter(current: Charter | undefined, map: Pick<CognitiveMap, 'goal' | 'constraints'>): Charter {
  const fromMap = charterFromMap(map);
  if (!current) return fromMap;
  let next: Charter = { ...current, goal: fromMap.goal };
  for (const c of fromMap.constraints) next = appendConstraint(next, c.text, c.source);
  return next;
}

/** A STATE text with the failure line replaced (renderState puts it last, so this equals a re-render). */
export function withFailure(state: string, reason: string): string {
  const kept = state.split('\n').filter((line) => !line.startsWith(FAILURE_PREFIX));
  return [...kept, `${FAILURE_PREFIX} ${reason.replace(/\s+/g, ' ').trim().slice(0, 400)}`].join('\n');
}

function logEntry(step: StepEvent, milestoneId: string | null, conclusion: string | undefined): OperationLogEntry {
  const text = step.kind === 'milestone' ? `${step.milestone.id} ${step.milestone.status}` : (stepText(step)?.text ?? step.kind);
  return { seq: step.seq, milestoneId, kind: step.kind, text, ...(conclusion !== undefined && { conclusion }) };
}
