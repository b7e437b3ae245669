/**
 * Where a detector worker keeps per-agent detector state between processes (DESIGN §7): Redis in
 * distributed mode (`RedisDetectorStateStore` of @wayfinder/redis has this shape), none in embedded mode
 * (a single process owns every agent).
 */
export interface AgentRef {
  tenantId: string;
  agentId: string;
}

export interface DetectorStateStore {
  versions(agents: readonly AgentRef[]): Promise<number[]>;
  load(agents: readonly AgentRef[]): Promise<Array<{ version: number; state: Uint8Array } | undefined>>;
  save(writes: ReadonlyArray<AgentRef & { state: Uint8Array }>): Promise<number[]>;
}

export const DETECTOR_STATE_STORE = Symbol('wayfinder.detector-state-store');
