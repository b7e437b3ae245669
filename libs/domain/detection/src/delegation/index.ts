/** cross_agent_cycle: delegation signals, the per-tenant delegation graph, and its in-process detector. */
export { delegationOf, delegationSignalsOf, normalizeSubtask } from './delegation-signal';
export { DelegationGraph } from './delegation-graph';
export { CrossAgentCycleDetector } from './cross-agent-cycle.detector';
export { DelegationSignaller } from './delegation-signaller';
