/** How the stream services keep per-agent state (DESIGN §7), from the configuration. */
export interface StateSettings {
  /** Agents untouched this long are evicted from memory (their state stays in the store). */
  readonly idleTtlMs?: number;
  /** At most this many agents in memory per service. */
  readonly maxAgents?: number;
  /** How often idle agents are looked for. */
  readonly evictEveryMs?: number;
  /** How long the state localizer holds a step whose task has no map yet. */
  readonly holdMs?: number;
  /** The consumer group of a stream service (to follow its rebalances: dropStateOfRevokedPartitions). */
  readonly groupIdOf?: (service: string) => string;
}

export const STATE_SETTINGS = Symbol('wayfinder.state-settings');
/**
 * What detection reads of one step (a StepBounds of @wayfinder/detection: the operator's
 * WAYFINDER_DETECTION_MAX_*), for the services that run the detection engine; its defaults when absent.
 */
export const DETECTION_STEP_BOUNDS = Symbol('wayfinder.detection-step-bounds');
/** The AgentStateStores factory (distributed mode); absent in embedded mode. */
export const AGENT_STATE_STORES = Symbol('wayfinder.agent-state-stores');
