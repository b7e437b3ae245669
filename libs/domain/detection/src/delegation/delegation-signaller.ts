/**
 * An agent's steps as delegation signals (cross_agent_cycle, DESIGN §5.3): a delegation, or progress —
 * a milestone done, or a localized position that completed one more milestone than the agent's last.
 * The in-process detector feeds them straight into its DelegationGraph; the distributed pipelines publish
 * them on `wayfinder.delegations.v1` (keyed by tenant) for the one consumer that holds the tenant's graph.
 */
import type { DelegationSignal, Position, StepEvent } from '@wayfinder/contracts';
import { delegationSignalsOf } from './delegation-signal';

/** Agents whose completed-milestone count is remembered (the oldest forgotten first). */
const MAX_AGENTS = 100_000;

export class DelegationSignaller {
  /** Completed milestones per tenant/agent/task as last localized (to see progress). */
  private readonly completed = new Map<string, number>();

  signalsOf(step: StepEvent, position: Position | undefined): DelegationSignal[] {
    return delegationSignalsOf(step, position !== undefined && Array.isArray(position.completed) && this.progressed(step, position.completed.length));
  }

  private progressed(step: StepEvent, completed: number): boolean {
    const key = `${step.tenantId}\u0000${step.agentId}\u0000${step.taskId}`;
    if (completed <= (this.completed.get(key) ?? 0)) return false;
    this.completed.delete(key);
    this.completed.set(key, completed);
    if (this.completed.size > MAX_AGENTS) this.completed.delete(this.completed.keys().next().value as string);
    return true;
  }
}
