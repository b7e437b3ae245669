/**
 * The read side of the memory service: the assembled context of an agent (charter, STATE, goal board,
 * the memories relevant to its current milestone, the pruned operation log — DESIGN §5.5) and its
 * checkpoint stack. Everything is looked up under the tenant of the request, so an agent of another
 * tenant is simply not found.
 */
import { Inject, Injectable } from '@nestjs/common';
import { anchorCounts, renderGoalBoard } from '@wayfinder/cognitive-map';
import { assembleContext, createCharter, type AgentScope, type AssembledContext, type Checkpoint, type WorkingMemory } from '@wayfinder/memory';
import type { DurableAgentStates, MapCache } from '@wayfinder/service-core';
import { AgentTrails } from './agent-trails';
import { MEMORY_MAPS } from './memory-maps';
import { MemoryRecorder } from './memory-recorder';
import { MEMORY_TRAIL_STATES, WORKING_MEMORY } from './tokens';

export interface AgentContext extends AssembledContext {
  tenantId: string;
  taskId: string;
  agentId: string;
  budgetTokens: number;
  currentMilestoneId: string | null;
}

@Injectable()
export class AgentContextReader {
  constructor(
    @Inject(WORKING_MEMORY) private readonly working: WorkingMemory,
    @Inject(MEMORY_MAPS) private readonly maps: MapCache,
    private readonly trails: AgentTrails,
    private readonly recorder: MemoryRecorder,
    @Inject(MEMORY_TRAIL_STATES) private readonly states: DurableAgentStates,
  ) {}

  /** Undefined when the tenant has nothing for this agent and task (no charter, STATE or checkpoint). */
  async context(scope: AgentScope, budgetTokens: number): Promise<AgentContext | undefined> {
    const [charter, state, checkpoints, map] = await Promise.all([
      this.working.getCharter(scope),
      this.working.getState(scope),
      this.working.listCheckpoints(scope),
      this.maps.get(scope.tenantId, scope.taskId),
    ]);
    if (!charter && !state && checkpoints.length === 0) return undefined;
    // The agent's trail as stored, when this process has not seen the agent since a restart or evicted it.
    const trail = await this.states.read([scope], () => this.trails.peek(scope));
    const currentMilestoneId = trail?.position?.milestoneId ?? null;
    const milestone = map?.milestones.find((m) => m.id === currentMilestoneId);
    const memories = await this.recorder.longTerm.recall({
      tenantId: scope.tenantId,
      taskId: scope.taskId,
      milestoneId: currentMilestoneId,
      text: milestone?.description ?? state?.text ?? charter?.goal ?? map?.goal ?? '',
    });
    const assembled = assembleContext({
      charter: charter ?? createCharter(map?.goal ?? ''),
      ...(state && { state: state.text }),
      ...(map && { goalBoard: renderGoalBoard(map, trail?.anchors ? anchorCounts(trail.anchors) : {}) }),
      currentMilestoneId,
      memories,
      log: trail?.log ?? [],
      budgetTokens,
    });
    return { tenantId: scope.tenantId, taskId: scope.taskId, agentId: scope.agentId, budgetTokens, currentMilestoneId, ...assembled };
  }

  /** Undefined when the tenant has nothing for this agent and task. */
  async checkpoints(scope: AgentScope): Promise<Checkpoint[] | undefined> {
    const [checkpoints, state, charter] = await Promise.all([this.working.listCheckpoints(scope), this.working.getState(scope), this.working.getCharter(scope)]);
    if (checkpoints.length === 0 && !state && !charter) return undefined;
    return checkpoints;
  }
}
