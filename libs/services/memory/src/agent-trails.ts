/**
 * What the memory service remembers about each agent it has seen (an AgentTrail of @wayfinder/memory, whose
 * rules decide what it changes): the last position, anchor progress
 * (for the goal board), the current conclusion and references (for STATE), the reason of the last failed
 * attempt, the milestones already checkpointed, and a short operation log for context assembly. It is
 * durable per-agent state (DESIGN §7, an AgentStateHolder: one document per agent, its tasks' trails),
 * written back after each batch and restored after a restart, a partition move or an eviction. Without a
 * store (embedded mode) it is bounded here: the least recently seen agents are forgotten first.
 */
import { newTrail, type AgentScope, type AgentTrail } from '@wayfinder/memory';
import { compositeKey, type AgentStateHolder } from '@wayfinder/service-core';

const DEFAULT_MAX_AGENTS = 50_000;

const STATE_VERSION = 1;
/** Tasks remembered per agent (the newest). */
const MAX_TASKS_PER_AGENT = 4;

type TrailDoc = Omit<AgentTrail, 'checkpointed'> & { checkpointed: string[] };

export class AgentTrails implements AgentStateHolder {
  /** agent (tenant, agent) → taskId → trail; agents least recently seen first. */
  private readonly agents = new Map<string, Map<string, AgentTrail>>();

  /** `maxAgents`: the bound when no store keeps the trails (Infinity when DurableAgentStates bounds them). */
  constructor(private readonly maxAgents = DEFAULT_MAX_AGENTS) {}

  get size(): number {
    return this.agents.size;
  }

  peek(scope: AgentScope): AgentTrail | undefined {
    return this.agents.get(compositeKey(scope.tenantId, scope.agentId))?.get(scope.taskId);
  }

  /** The trail of an agent, created with `seed` (what is already checkpointed) when first seen. */
  async get(scope: AgentScope, seed: () => Promise<Iterable<string>>): Promise<AgentTrail> {
    const key = compositeKey(scope.tenantId, scope.agentId);
    let tasks = this.agents.get(key);
    let trail = tasks?.get(scope.taskId);
    if (!trail) trail = newTrail(await seed());
    tasks = this.agents.get(key) ?? new Map();
    this.agents.delete(key); // re-inserted: most recently seen last
    this.agents.set(key, tasks);
    tasks.delete(scope.taskId);
    tasks.set(scope.taskId, trail);
    while (tasks.size > MAX_TASKS_PER_AGENT) tasks.delete(tasks.keys().next().value as string);
    while (this.agents.size > this.maxAgents) this.agents.delete(this.agents.keys().next().value as string);
    return trail;
  }

  exportAgentState(tenantId: string, agentId: string): Uint8Array | undefined {
    const tasks = this.agents.get(compositeKey(tenantId, agentId));
    if (!tasks || tasks.size === 0) return undefined;
    const doc = { v: STATE_VERSION, tenantId, agentId, tasks: [...tasks].map(([taskId, t]) => [taskId, { ...t, checkpointed: [...t.checkpointed] }]) };
    return new TextEncoder().encode(JSON.stringify(doc));
  }

  importAgentState(tenantId: string, agentId: string, state: Uint8Array): void {
    const doc = JSON.parse(new TextDecoder().decode(state)) as { v: number; tenantId: string; agentId: string; tasks: Array<[string, TrailDoc]> };
    if (doc?.v !== STATE_VERSION || !Array.isArray(doc.tasks)) throw new Error(`memory trail state: unsupported document version ${String(doc?.v)}`);
    if (doc.tenantId !== tenantId || doc.agentId !== agentId) throw new Error('memory trail state: document of another agent');
    this.agents.set(compositeKey(tenantId, agentId), new Map(doc.tasks.map(([taskId, t]) => [taskId, { ...t, checkpointed: new Set(t.checkpointed) }])));
  }

  forgetAgent(tenantId: string, agentId: string): void {
    this.agents.delete(compositeKey(tenantId, agentId));
  }
}
