/**
 * The state localizer's per-agent state (DESIGN §7): one Localizer per (agent, task) — completed
 * milestones, current one, anchor progress — exported as snapshots for the durable state mechanism. A
 * restored snapshot waits, as it is, until the task's map is at hand (Localizer.restore needs it).
 */
import type { CognitiveMap, StepEvent } from '@wayfinder/contracts';
import { Localizer, type LocalizerSnapshot } from '@wayfinder/cognitive-map';
import type { Embedder } from '@wayfinder/embeddings';
import { compositeKey, type AgentStateHolder } from '@wayfinder/service-core';

const STATE_VERSION = 1;
/** Tasks remembered per agent (the newest): an agent works on one task at a time. */
const MAX_TASKS_PER_AGENT = 4;

type Entry = Localizer | LocalizerSnapshot;

export class LocalizerStates implements AgentStateHolder {
  /** agent → taskId → localizer (or a stored snapshot not yet restored on its map). */
  private readonly agents = new Map<string, Map<string, Entry>>();

  constructor(private readonly embedder: Embedder) {}

  get size(): number {
    return this.agents.size;
  }

  /** The agent's localizer on this map (restored from its snapshot, or carried to a newer map version). */
  localizerFor(step: StepEvent, map: CognitiveMap): Localizer {
    const key = compositeKey(step.tenantId, step.agentId);
    let tasks = this.agents.get(key);
    if (!tasks) this.agents.set(key, (tasks = new Map()));
    const entry = tasks.get(step.taskId);
    let localizer: Localizer;
    if (entry instanceof Localizer && entry.map.version >= map.version) localizer = entry;
    else if (entry) localizer = Localizer.restore(map, entry instanceof Localizer ? entry.snapshot() : entry, this.embedder);
    else localizer = new Localizer(map, this.embedder);
    tasks.delete(step.taskId);
    tasks.set(step.taskId, localizer);
    while (tasks.size > MAX_TASKS_PER_AGENT) tasks.delete(tasks.keys().next().value as string);
    return localizer;
  }

  exportAgentState(tenantId: string, agentId: string): Uint8Array | undefined {
    const tasks = this.agents.get(compositeKey(tenantId, agentId));
    if (!tasks || tasks.size === 0) return undefined;
    const doc = { v: STATE_VERSION, tenantId, agentId, tasks: [...tasks].map(([taskId, e]) => [taskId, e instanceof Localizer ? e.snapshot() : e]) };
    return new TextEncoder().encode(JSON.stringify(doc));
  }

  importAgentState(tenantId: string, agentId: string, state: Uint8Array): void {
    const doc = JSON.parse(new TextDecoder().decode(state)) as { v: number; tenantId: string; agentId: string; tasks: Array<[string, LocalizerSnapshot]> };
    if (doc?.v !== STATE_VERSION || !Array.isArray(doc.tasks)) throw new Error(`localizer state: unsupported document version ${String(doc?.v)}`);
    if (doc.tenantId !== tenantId || doc.agentId !== agentId) throw new Error('localizer state: document of another agent');
    this.agents.set(compositeKey(tenantId, agentId), new Map(doc.tasks));
  }

  forgetAgent(tenantId: string, agentId: string): void {
    this.agents.delete(compositeKey(tenantId, agentId));
  }
}
