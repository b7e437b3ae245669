/**
 * @wayfinder/service-core: what the stream services share in a process, by concern —
 * - `tokens.ts`, `core.module.ts`: the Nest tokens and the global module that provides the shared ports;
 * - `state/`: durable per-agent state (the AgentStateStore port, DurableAgentStates, settings);
 * - `maps/`: the services' view of cognitive maps (MapCache; the MapStore port is @wayfinder/cognitive-map's);
 * - `policies/`: the policies-topic handler feeding the PolicyBook (@wayfinder/detection);
 * - `dead-letter/`: dead-lettering input that passed the schema but cannot be used;
 * - `periodic/`: timer-driven work, awaited and stopped once;
 * - `delegations/`: the tenants' cross_agent_cycle graphs (the navigator's and the detector worker's).
 * The ports and rules that moved down are re-exported so services import them from one place as before.
 */
export * from './tokens';
export * from './core.module';
export * from './state/agent-state.store';
export * from './state/durable-agent-states';
export * from './state/state-settings';
export * from './maps/map-cache';
export { InMemoryMapStore, type MapStore } from '@wayfinder/cognitive-map';
export * from './policies/policies.handler';
export { PolicyBook } from '@wayfinder/detection';
export * from './dead-letter/dead-letter';
export * from './periodic/periodic-task';
export * from './delegations/delegations.handler';
