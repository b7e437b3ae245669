/**
 * The in-process (replay, embedded) path of cross_agent_cycle: steps of every agent of a tenant pass
 * through one process, so their signals (delegation-signaller.ts) go straight into one DelegationGraph.
 * The distributed path publishes the same signals on `wayfinder.delegations.v1` (keyed by tenant) for a
 * per-tenant consumer.
 */
import type { Deviation, PolicySettings, Position, StepEvent } from '@wayfinder/contracts';
import { DelegationGraph } from './delegation-graph';
import { DelegationSignaller } from './delegation-signaller';

export class CrossAgentCycleDetector {
  readonly graph = new DelegationGraph();
  private readonly signaller = new DelegationSignaller();

  onStep(step: StepEvent, position: Position | undefined, policy: PolicySettings): Deviation[] {
    if (!policy.crossAgent.enabled) return [];
    const out: Deviation[] = [];
    for (const signal of this.signaller.signalsOf(step, position)) out.push(...this.graph.onSignal(signal, policy.crossAgent));
    return out;
  }
}
