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
 * The writes of one tenant's agents, each atomic in Redis: with an expected version (≥ 0) an agent's state
 * is written only when its stored version is that one, else 0 comes back for it and nothing of it changes
 * (a stale instance after a rebalance cannot overwrite the new owner's newer state). One call per tenant
 * and batch (its keys share the tenant's Cluster slot), not one per agent: the per-command cost of the
 * client was most of a state write. KEYS: the agents' keys; ARGV: ttlMs, then (expected, state) per key.
 */
const SAVE_SCRIPT = `
local ttl = ARGV[1]
local out = {}
for i = 1, #KEYS do
  local expected = tonumber(ARGV[2 * i])
  local stored = tonumber(redis.call('HGET', KEYS[i], 'v') or '0')
  if expected >= 0 and stored ~= expected then
    out[i] = 0
  else
    out[i] = redis.call('HINCRBY', KEYS[i], 'v', 1)
    redis.call('HSET', KEYS[i], 's', ARGV[2 * i + 1])
    redis.call('PEXPIRE', KEYS[i], ttl)
  end
end
return out
`;

/** Agents per script call: a bound on how long one call holds Redis. */
const MAX_AGENTS_PER_CALL = 256;

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
    // Sent by SHA (EVALSHA; ioredis loads the script when the server does not know it), not as its source.
    if (!('wfAgentStatesSave' in redis)) redis.defineCommand('wfAgentStatesSave', { lua: SAVE_SCRIPT });
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
   * Writes the states in one pipeline (a script call per tenant: check each agent's version, bump it,
   * store, refresh the TTL); resolves to the new version of each, or 0 for a versioned write that found
   * another version.
   */
  async save(writes: readonly AgentStateWrite[]): Promise<number[]> {
    if (writes.length === 0) return [];
    const byTenant = new Map<string, number[]>();
    writes.forEach((w, i) => {
      const list = byTenant.get(w.tenantId);
      if (list) list.push(i);
      else byTenant.set(w.tenantId, [i]);
    });
    const pipeline = this.redis.pipeline() as ChainableCommander & { wfAgentStatesSave(...args: Array<string | number | Buffer>): unknown };
    const calls: number[][] = [];
    for (const indexes of byTenant.values()) {
      for (let from = 0; from < indexes.length; from += MAX_AGENTS_PER_CALL) {
        const call = indexes.slice(from, from + MAX_AGENTS_PER_CALL);
        const args: Array<string | number | Buffer> = [call.length];
        for (const i of call) args.push(this.keyOf(writes[i]));
        args.push(this.ttlMs);
        for (const i of call) {
          const w = writes[i];
          args.push(w.expectedVersion === undefined ? -1 : w.expectedVersion, Buffer.from(w.state.buffer, w.state.byteOffset, w.state.byteLength));
        }
        pipeline.wfAgentStatesSave(...args);
        calls.push(call);
      }
    }
    const results = (await pipeline.exec()) ?? [];
    const versions = new Array<number>(writes.length);
    results.forEach(([error, answer], c) => {
      if (error) throw error;
      (answer as number[]).forEach((v, j) => (versions[calls[c][j]] = Number(v)));
    });
    return versions;
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
