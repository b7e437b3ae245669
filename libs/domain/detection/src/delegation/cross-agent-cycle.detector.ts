/**
 * The in-process (replay, embedded) path of cross_agent_cycle: steps of every agent of a tenant pass
 * through one process, so their signals go straight into one DelegationGraph. Progress is a milestone
 * done or a localized position that completed one more milestone. The distributed path publishes the
 * same signals on `wayfinder.delegations.v1` (keyed by tenant) for a per-tenant consumer.
 */
import type { Deviation, PolicySettings, Position, StepEvent } from '@wayfinder/contracts';
import { DelegationGraph } from './delegation-graph';
import { delegationSignalsOf } from './delegation-signal';

const MAX_AGENTS = 100_000;

export class CrossAgentCycleDetector {
  readonly graph = new DelegationGraph();
  /** Completed milestones per tenant/agent/task as last localized (to see progress). */
  private readonly completed = new Map<string, number>();

  onStep(step: StepEvent, position: Position | undefined, policy: PolicySettings): Deviation[] {
    if (!policy.crossAgent.enabled) return [];
    let progressed = false;
    if (position && Array.isArray(position.completed)) {
      const key = `${step.tenantId}\u0000${step.agentId}\u0000${step.taskId}`;
      const before = this.completed.get(key) ?? 0;
      if (position.completed.length > before) {
        progressed = true;
        this.completed.delete(key);
        this.completed.set(key, position.completed.length);
        if (this.completed.size > MAX_AGENTS) this.completed.delete(this.completed.keys().next().value as string);
      }
    }
    const out: Deviation[] = [];
    for (const signal of delegationSignalsOf(step, progressed)) out.push(...this.graph.onSignal(signal, policy.crossAgent));
    return out;
  }
}
