/**
 * What the memory service remembers about each agent it has seen (an AgentTrail of @wayfinder/memory, whose
 * rules decide what it changes): the last position, anchor progress
 * (for the goal board), the current conclusion and references (for STATE), the reason of the last failed
 * attempt, the milestones already checkpointed, and a short operation log for context assembly. It is
 * durable per-agent state (DESIGN §7, an AgentStateHolder: one document per agent, its tasks' trails),
 * written back after each batch and restored after a restart, a partition move or an eviction. The
 * document is @wayfinder/memory's agent-trail-codec (binary, version 3; versions 2 and 1 still read): each
 * task keeps its operation log encoded beside it, so a write encodes only what the batch appended. Without a
 * store (embedded mode) it is bounded here: the least recently seen agents are forgotten first.
 */
import { decodeAgentTrails, encodeAgentTrails, newTrail, TrailLogBytes, type AgentScope, type AgentTrail } from '@wayfinder/memory';
import { compositeKey, type AgentStateHolder } from '@wayfinder/service-core';

const DEFAULT_MAX_AGENTS = 50_000;

/** Tasks remembered per agent (the newest). */
const MAX_TASKS_PER_AGENT = 4;

/** A task's trail and its operation log already encoded (agent-trail-codec: written incrementally). */
interface TaskSlot {
  readonly trail: AgentTrail;
  readonly log: TrailLogBytes;
}

export class AgentTrails implements AgentStateHolder {
  /** agent (tenant, agent) → taskId → trail; agents least recently seen first. */
  private readonly agents = new Map<string, Map<string, TaskSlot>>();

  /** `maxAgents`: the bound when no store keeps the trails (Infinity when DurableAgentStates bounds them). */
  constructor(private readonly maxAgents = DEFAULT_MAX_AGENTS) {}

  get size(): number {
    return this.agents.size;
  }

  peek(scope: AgentScope): AgentTrail | undefined {
    return this.agents.get(compositeKey(scope.tenantId, scope.agentId))?.get(scope.taskId)?.trail;
  }

  /** The trail of an agent, created with `seed` (what is already checkpointed) when first seen. */
  async get(scope: AgentScope, seed: () => Promise<Iterable<string>>): Promise<AgentTrail> {
    const key = compositeKey(scope.tenantId, scope.agentId);
    let tasks = this.agents.get(key);
    let slot = tasks?.get(scope.taskId);
    if (!slot) {
      const checkpointed = await seed();
      // Another batch (a correction beside the agent's first steps) may have made the trail while the
      // seed was read: that one holds what it applied since, and stays.
      slot = this.agents.get(key)?.get(scope.taskId) ?? { trail: newTrail(checkpointed), log: new TrailLogBytes() };
    }
    tasks = this.agents.get(key);
    if (!tasks) this.agents.set(key, (tasks = new Map()));
    else if (this.maxAgents !== Infinity) {
      // Re-inserted: most recently seen last (only the bound here needs the order; unbounded, the
      // DurableAgentStates around it keeps the LRU and evicts through forgetAgent).
      this.agents.delete(key);
      this.agents.set(key, tasks);
    }
    if (tasks.get(scope.taskId) !== slot || tasks.size > 1) {
      tasks.delete(scope.taskId);
      tasks.set(scope.taskId, slot);
    }
    while (tasks.size > MAX_TASKS_PER_AGENT) tasks.delete(tasks.keys().next().value as string);
    while (this.agents.size > this.maxAgents) this.agents.delete(this.agents.keys().next().value as string);
    return slot.trail;
  }

  exportAgentState(tenantId: string, agentId: string): Uint8Array | undefined {
    const tasks = this.agents.get(compositeKey(tenantId, agentId));
    if (!tasks || tasks.size === 0) return undefined;
    const slots = [...tasks];
    // Each task's log from its kept bytes: only the entries appended since the last write are encoded.
    return encodeAgentTrails({ tenantId, agentId, tasks: slots.map(([taskId, slot]) => [taskId, slot.trail]) }, (i) => slots[i][1].log);
  }

  /** Reads the current document version and the previous one (JSON, written by earlier builds). */
  importAgentState(tenantId: string, agentId: string, state: Uint8Array): void {
    const doc = decodeAgentTrails(state);
    if (doc.tenantId !== tenantId || doc.agentId !== agentId) throw new Error('memory trail state: document of another agent');
    this.agents.set(compositeKey(tenantId, agentId), new Map(doc.tasks.map(([taskId, trail]) => [taskId, { trail, log: new TrailLogBytes() }])));
  }

  forgetAgent(tenantId: string, agentId: string): void {
    this.agents.delete(compositeKey(tenantId, agentId));
  }
}
