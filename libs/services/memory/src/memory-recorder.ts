/**
 * Writes working and long-term memory from the navigation events (DESIGN §5.5); the decisions (charter,
 * redelivery, checkpoint, STATE, keep-alive) are @wayfinder/memory's agent-trail rules, this is the wiring:
 * - a cognitive map becomes the task charter (goal in one sentence, hard constraints numbered);
 * - a localized step: user feedback is appended to the charter as the next numbered constraint; agent
 *   outputs, milestone evidence and feedback go through the write rules into long-term memory; when a
 *   milestone becomes completed a checkpoint is pushed; STATE is re-rendered and overwritten when it changed;
 * - a rollback correction pops the checkpoint stack down to the named checkpoint and restores its STATE
 *   with the failure reason, which also goes into every STATE until the agent completes a milestone.
 * Every write is idempotent under redelivery: same checkpoint on top, same constraint text, same memory id,
 * STATE never moved back to an older step.
 */
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { positionOnMap, type CognitiveMap, type Correction, type LocalizedStep, type StepEvent } from '@wayfinder/contracts';
import { systemClock, type Clock } from '@wayfinder/clock';
import type { Embedder } from '@wayfinder/embeddings';
import {
  admitStep,
  advanceOnMap,
  appendLog,
  charterOnFeedback,
  charterOnMap,
  concludeWith,
  keepAliveDue,
  logEntry,
  LongTermMemory,
  markCheckpointed,
  moveTo,
  rollbackTo,
  stateAfterCorrection,
  stateChanged,
  type AgentScope,
  type AgentTrail,
  type MemoryCandidate,
  type VectorStore,
  type WorkingMemory,
  type WriteDecision,
} from '@wayfinder/memory';
import { CLOCK, type MapCache } from '@wayfinder/service-core';
import { AgentTrails } from './agent-trails';
import { MEMORY_MAPS } from './memory-maps';
import { MEMORY_EMBEDDER, MEMORY_OPTIONS, VECTOR_STORE, WORKING_MEMORY } from './tokens';

export interface MemoryRecorderOptions {
  /** The working memory's TTL: an active agent's entries are re-written every quarter of it. Default 24 h. */
  ttlMs?: number;
  /** Overrides the process clock (CLOCK) for this recorder. */
  now?: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

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
    @Optional() @Inject(CLOCK) clock: Clock = systemClock,
  ) {
    this.longTerm = new LongTermMemory(store, embedder);
    this.keepAliveEveryMs = (options?.ttlMs ?? DAY_MS) / 4;
    this.now = options?.now ?? clock.now;
  }

  async onMap(map: CognitiveMap): Promise<void> {
    this.maps.offer(map);
    const scope = { tenantId: map.tenantId, taskId: map.taskId };
    // Atomic: a feedback constraint appended meanwhile by another instance is kept.
    await this.working.updateCharter(scope, (current) => charterOnMap(current, map));
  }

  async onLocalized(localized: LocalizedStep): Promise<void> {
    const { step, position } = localized;
    const scope: AgentScope = { tenantId: step.tenantId, taskId: step.taskId, agentId: step.agentId };
    const trail = await this.trails.get(scope, async () => (await this.working.listCheckpoints(scope)).map((c) => c.milestoneId));
    if (!admitStep(trail, step)) return; // redelivered: everything below was already applied
    const map = !positionOnMap(position) ? undefined : await this.maps.get(step.tenantId, step.taskId);

    let conclusion: string | undefined;
    if (step.kind === 'feedback') {
      await this.appendFeedbackConstraint(scope, step.feedback.text, map);
      // A user correction holds for the whole task, not only the milestone it was given at.
      await this.remember(scope, step, null, { text: step.feedback.text, source: 'feedback', verified: true });
    } else if (step.kind === 'message' && step.message.type === 'output' && step.message.role === 'assistant') {
      const decision = await this.remember(scope, step, position.milestoneId, { text: step.message.text, source: 'conclusion' });
      if (decision.write) conclusion = concludeWith(trail, step.message.text, decision.kind === 'reference');
    } else if (step.kind === 'milestone' && step.milestone.status === 'done' && step.milestone.evidence) {
      await this.remember(scope, step, step.milestone.id, { text: step.milestone.evidence, source: 'milestone_evidence', verified: true });
    }

    moveTo(trail, position);
    if (map) {
      const { state, checkpoint, newlyCompleted } = advanceOnMap(trail, map, step, position);
      if (checkpoint) {
        await this.working.pushCheckpoint(scope, checkpoint);
        markCheckpointed(trail, newlyCompleted);
      }
      if (stateChanged(trail, state) && (await this.working.putState(scope, { seq: step.seq, text: state }))) trail.lastStateText = state;
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
    if (!keepAliveDue(trail, this.now(), this.keepAliveEveryMs)) return;
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
    let checkpointState: string | undefined;
    if (correction.action === 'rollback' && correction.rollback.checkpointId !== null) {
      const checkpoint = await rollbackTo(this.working, scope, correction.rollback.checkpointId);
      if (!checkpoint) this.logger.warn(`tenant ${scope.tenantId} agent ${scope.agentId}: rollback to unknown checkpoint ${correction.rollback.checkpointId}`);
      checkpointState = checkpoint?.state;
    }
    const next = stateAfterCorrection(checkpointState, await this.working.getState(scope), correction);
    if (!next) return; // no STATE yet: the failure goes into the first one rendered
    if (await this.working.putState(scope, next)) trail.lastStateText = next.text;
  }

  private async appendFeedbackConstraint(scope: AgentScope, feedback: string, map: CognitiveMap | undefined): Promise<void> {
    // Atomic: two feedback steps of the same task (two agents, two instances) both get a number.
    await this.working.updateCharter(scope, (stored) => charterOnFeedback(stored, feedback, map));
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
