/**
 * The state localizer's per-agent state (DESIGN §7): one Localizer per (agent, task) — completed
 * milestones, current one, anchor progress — exported as snapshots for the durable state mechanism. A
 * restored snapshot waits, as it is, until the task's map is at hand (Localizer.restore needs it).
 */
import { utf8Bytes, type CognitiveMap, type StepEvent } from '@wayfinder/contracts';
import { Localizer, type LocalizerSnapshot } from '@wayfinder/cognitive-map';
import type { SyncEmbedder } from '@wayfinder/embeddings';
import { compositeKey, type AgentStateHolder } from '@wayfinder/service-core';

const STATE_VERSION = 1;
/** Tasks remembered per agent (the newest): an agent works on one task at a time. */
const MAX_TASKS_PER_AGENT = 4;

interface Entry {
  localizer: Localizer | LocalizerSnapshot;
  /** The run and the last seq localized in it: a redelivered step is recognised, not localized again. */
  runId: string | null;
  lastSeq: number;
}

export class LocalizerStates implements AgentStateHolder {
  /** agent → taskId → localizer (or a stored snapshot not yet restored on its map). */
  private readonly agents = new Map<string, Map<string, Entry>>();

  constructor(private readonly embedder: SyncEmbedder) {}

  get size(): number {
    return this.agents.size;
  }

  /** Whether this step of the agent was already localized (a redelivery after a crash). */
  isDuplicate(step: StepEvent): boolean {
    const entry = this.agents.get(compositeKey(step.tenantId, step.agentId))?.get(step.taskId);
    return entry !== undefined && entry.runId === (step.runId ?? null) && step.seq <= entry.lastSeq;
  }

  /** Localizes the step with the agent's localizer on this map (restored from its snapshot, or carried to a newer map version). */
  localize(step: StepEvent, map: CognitiveMap): ReturnType<Localizer['onStep']> {
    const key = compositeKey(step.tenantId, step.agentId);
    let tasks = this.agents.get(key);
    if (!tasks) this.agents.set(key, (tasks = new Map()));
    const entry = tasks.get(step.taskId);
    const held = entry?.localizer;
    let localizer: Localizer;
    if (held instanceof Localizer && held.map.version >= map.version) localizer = held;
    else if (held) localizer = Localizer.restore(map, held instanceof Localizer ? held.snapshot() : held, this.embedder);
    else localizer = new Localizer(map, this.embedder);
    tasks.delete(step.taskId);
    const runId = step.runId ?? null;
    const lastSeq = entry && entry.runId === runId ? Math.max(entry.lastSeq, step.seq) : step.seq;
    tasks.set(step.taskId, { localizer, runId, lastSeq });
    while (tasks.size > MAX_TASKS_PER_AGENT) tasks.delete(tasks.keys().next().value as string);
    return localizer.onStep(step);
  }

  exportAgentState(tenantId: string, agentId: string): Uint8Array | undefined {
    const tasks = this.agents.get(compositeKey(tenantId, agentId));
    if (!tasks || tasks.size === 0) return undefined;
    const doc = {
      v: STATE_VERSION,
      tenantId,
      agentId,
      tasks: [...tasks].map(([taskId, e]) => [taskId, { ...e, localizer: e.localizer instanceof Localizer ? e.localizer.snapshot() : e.localizer }]),
    };
    return utf8Bytes(JSON.stringify(doc));
  }

  importAgentState(tenantId: string, agentId: string, state: Uint8Array): void {
    const doc = JSON.parse(new TextDecoder().decode(state)) as { v: number; tenantId: string; agentId: string; tasks: Array<[string, Entry]> };
    if (doc?.v !== STATE_VERSION || !Array.isArray(doc.tasks)) throw new Error(`localizer state: unsupported document version ${String(doc?.v)}`);
    if (doc.tenantId !== tenantId || doc.agentId !== agentId) throw new Error('localizer state: document of another agent');
    this.agents.set(compositeKey(tenantId, agentId), new Map(doc.tasks));
  }

  forgetAgent(tenantId: string, agentId: string): void {
    this.agents.delete(compositeKey(tenantId, agentId));
  }
}
