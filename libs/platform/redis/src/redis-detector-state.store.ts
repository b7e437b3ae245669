/**
 * Per-agent state of the stream services in Redis (DESIGN §7), one hash per (kind, tenant, agent):
 * the detector's, the localizer's, the correction engine's, the memory service's trails. A service writes
 * the state of the agents a batch touched in one pipeline before committing its offsets. Each write bumps
 * a version; a service that finds a version other than the one it last read or wrote knows another
 * instance processed the agent since (its partition moved away and back) and reloads the state.
 */
import type { ChainableCommander, Redis } from 'ioredis';
import { tenantKey } from './keys';

export interface AgentRef {
  tenantId: string;
  agentId: string;
}

export interface StoredAgentState {
  version: number;
  state: Uint8Array;
}

export interface AgentStateWrite extends AgentRef {
  state: Uint8Array;
  /** Written only when the stored version is this one (0 = none stored); absent: whatever is stored. */
  expectedVersion?: number;
}

/**
 * One agent's write, atomic in Redis: with an expected version (ARGV[1] ≥ 0) the state is written only
 * when the stored version is that one, else 0 comes back and nothing changes (a stale instance after a
 * rebalance cannot overwrite the new owner's newer state). One key per call, so it runs in a cluster too.
 */
const SAVE_SCRIPT = `
local stored = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
local expected = tonumber(ARGV[1])
if expected >= 0 and stored ~= expected then return 0 end
local v = redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('HSET', KEYS[1], 's', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return v
`;


const DEFAULT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface RedisAgentStateStoreOptions {
  /** How long an untouched agent's state is kept (default 7 days). */
  ttlMs?: number;
  /** Separates deployments sharing one Redis (the topic prefix): their agents' states never mix. */
  namespace?: string;
}

export class RedisAgentStateStore {
  private readonly ttlMs: number;
  private readonly namespace: string;

  constructor(
    private readonly redis: Redis,
    /** Which state: 'detector', 'localizer', 'correction', 'memory-trail'. */
    private readonly kind: string,
    options: RedisAgentStateStoreOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.namespace = options.namespace ?? '';
    // Sent by SHA (EVALSHA; ioredis loads the script when the server does not know it), not as source per agent.
    if (!('wfAgentStateSave' in redis)) redis.defineCommand('wfAgentStateSave', { numberOfKeys: 1, lua: SAVE_SCRIPT });
  }

  /** The stored versions of these agents (0 when none), in one round trip. */
  async versions(agents: readonly AgentRef[]): Promise<number[]> {
    if (agents.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const a of agents) pipeline.hget(this.keyOf(a), 'v');
    const results = (await pipeline.exec()) ?? [];
    return results.map(([error, value]) => {
      if (error) throw error;
      return value ? Number(value) : 0;
    });
  }

  /** The stored states of these agents (undefined when none), in one round trip. */
  async load(agents: readonly AgentRef[]): Promise<Array<StoredAgentState | undefined>> {
    if (agents.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const a of agents) pipeline.hmgetBuffer(this.keyOf(a), 'v', 's');
    const results = (await pipeline.exec()) ?? [];
    return results.map(([error, value]) => {
      if (error) throw error;
      const [version, state] = value as [Buffer | null, Buffer | null];
      return version && state ? { version: Number(version.toString()), state: new Uint8Array(state) } : undefined;
    });
  }

  /**
   * Writes the states in one pipeline (a script per agent: check the version, bump it, store, refresh the
   * TTL); resolves to the new version of each, or 0 for a versioned write that found another version.
   */
  async save(writes: readonly AgentStateWrite[]): Promise<number[]> {
    if (writes.length === 0) return [];
    const pipeline = this.redis.pipeline() as ChainableCommander & { wfAgentStateSave(key: string, expected: number, state: Buffer, ttlMs: number): unknown };
    for (const w of writes) {
      const expected = w.expectedVersion === undefined ? -1 : w.expectedVersion;
      pipeline.wfAgentStateSave(this.keyOf(w), expected, Buffer.from(w.state.buffer, w.state.byteOffset, w.state.byteLength), this.ttlMs);
    }
    const results = (await pipeline.exec()) ?? [];
    return results.map(([error, version]) => {
      if (error) throw error;
      return Number(version);
    });
  }

  private keyOf(agent: AgentRef): string {
    return this.namespace ? tenantKey(agent.tenantId, this.kind, this.namespace, agent.agentId) : tenantKey(agent.tenantId, this.kind, agent.agentId);
  }
}

export type RedisDetectorStateStoreOptions = RedisAgentStateStoreOptions;

/** The detector worker's state (kind 'detector'). */
export class RedisDetectorStateStore extends RedisAgentStateStore {
  constructor(redis: Redis, options: RedisAgentStateStoreOptions = {}) {
    super(redis, 'detector', options);
  }
}
