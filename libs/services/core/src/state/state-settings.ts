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
/** The AgentStateStores factory (distributed mode); absent in embedded mode. */
export const AGENT_STATE_STORES = Symbol('wayfinder.agent-state-stores');
