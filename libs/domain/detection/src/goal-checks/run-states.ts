/**
 * Per tenant/agent/run state of the goal-check detectors, bounded (a few runs per agent, newest kept) and
 * exported as plain JSON so the engine can persist and restore it with the agent's other state.
 */
import type { StepEvent } from '@wayfinder/contracts';

const MAX_RUNS_PER_AGENT = 4;

export class RunStates<T> {
  private readonly agents = new Map<string, Map<string, T>>();

  constructor(
    private readonly create: () => T,
    /** Validates an imported run state; undefined drops it. */
    private readonly revive: (raw: unknown) => T | undefined,
  ) {}

  of(step: Pick<StepEvent, 'tenantId' | 'agentId' | 'runId'>): T {
    const key = agentKey(step.tenantId, step.agentId);
    let runs = this.agents.get(key);
    if (!runs) {
      runs = new Map();
      this.agents.set(key, runs);
    }
    const runKey = typeof step.runId === 'string' ? step.runId : '';
    let state = runs.get(runKey);
    if (!state) {
      state = this.create();
      runs.set(runKey, state);
      if (runs.size > MAX_RUNS_PER_AGENT) runs.delete(runs.keys().next().value as string);
    }
    return state;
  }

  export(tenantId: string, agentId: string, toJson: (state: T) => unknown): unknown {
    const runs = this.agents.get(agentKey(tenantId, agentId));
    if (!runs || runs.size === 0) return undefined;
    return Object.fromEntries([...runs].map(([run, state]) => [run, toJson(state)]));
  }

  import(tenantId: string, agentId: string, raw: unknown): void {
    this.forget(tenantId, agentId);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return;
    const runs = new Map<string, T>();
    for (const [run, value] of Object.entries(raw as Record<string, unknown>).slice(-MAX_RUNS_PER_AGENT)) {
      const state = this.revive(value);
      if (state !== undefined) runs.set(run, state);
    }
    if (runs.size > 0) this.agents.set(agentKey(tenantId, agentId), runs);
  }

  forget(tenantId: string, agentId: string): void {
    this.agents.delete(agentKey(tenantId, agentId));
  }
}

function agentKey(tenantId: string, agentId: string): string {
  return `${tenantId}\u0000${agentId}`;
}

/** Adds to a bounded insertion-ordered set (oldest dropped). */
export function addBounded(set: Set<string>, value: string, max: number): void {
  set.delete(value);
  set.add(value);
  if (set.size > max) set.delete(set.values().next().value as string);
}

export function stringArray(value: unknown, max: number): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').slice(-max) : [];
}
