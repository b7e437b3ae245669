/**
 * Per tenant/agent/run state of the goal-check detectors, bounded (a few runs per agent, newest kept) and
 * exported as plain JSON so the engine can persist and restore it with the agent's other state.
 */
import type { StepEvent } from '@wayfinder/contracts';
import { AgentRuns, type AgentSlots, type RunKey } from '../state/agent-runs';

const MAX_RUNS_PER_AGENT = 4;

export class RunStates<T extends object> {
  private readonly agents: AgentRuns<T>;

  constructor(
    private readonly create: () => T,
    /** Validates an imported run state; undefined drops it. */
    private readonly revive: (raw: unknown) => T | undefined,
    /** Where a state keeps its run id, when it can (see AgentRuns). */
    key?: RunKey<T>,
  ) {
    this.agents = new AgentRuns<T>(MAX_RUNS_PER_AGENT, key);
  }

  of(step: Pick<StepEvent, 'tenantId' | 'agentId' | 'runId'>): T {
    return this.agents.getOrCreate(step.tenantId, step.agentId, typeof step.runId === 'string' ? step.runId : '', this.create);
  }

  /** The run's state when it has one (nothing is created: a detector with nothing to check keeps nothing). */
  peek(step: Pick<StepEvent, 'tenantId' | 'agentId' | 'runId'>): T | undefined {
    return this.agents.get(step.tenantId, step.agentId, typeof step.runId === 'string' ? step.runId : '');
  }

  export(tenantId: string, agentId: string, toJson: (state: T) => unknown): unknown {
    const runs = this.agents.runs(tenantId, agentId);
    if (runs.length === 0) return undefined;
    return Object.fromEntries(runs.map(([run, state]) => [run, toJson(state)]));
  }

  import(tenantId: string, agentId: string, raw: unknown): void {
    this.forget(tenantId, agentId);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return;
    const runs: Array<[string, T]> = [];
    for (const [run, value] of Object.entries(raw as Record<string, unknown>).slice(-MAX_RUNS_PER_AGENT)) {
      const state = this.revive(value);
      if (state !== undefined) runs.push([run, state]);
    }
    this.agents.replace(tenantId, agentId, runs);
  }

  forget(tenantId: string, agentId: string): void {
    this.agents.forget(tenantId, agentId);
  }

  /** Kept in the engine's agents (see AgentRuns.useAgentSlots). */
  useAgentSlots(slots: AgentSlots): void {
    this.agents.useAgentSlots(slots);
  }
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
