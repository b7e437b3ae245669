/**
 * The port every stream service keeps its per-agent state behind (DESIGN §7): versioned documents, one
 * per (tenant, agent) and kind of state, read and written in coalesced batches. Redis in distributed
 * mode (`RedisAgentStateStore` of @wayfinder/redis), in memory in tests. Every adapter passes
 * `agentStateStoreContract` (agent-state.store.contract.ts).
 */
import { compositeKey } from '@wayfinder/contracts';

export interface AgentRef {
  readonly tenantId: string;
  readonly agentId: string;
}

export interface StoredAgentState {
  readonly version: number;
  readonly state: Uint8Array;
}

export interface AgentStateWrite extends AgentRef {
  readonly state: Uint8Array;
  /**
   * Versioned write (compare-and-set): written only when the stored version is this one (0 = nothing
   * stored), so an instance that lost the agent's partition cannot overwrite what the new owner wrote.
   * Absent: written whatever is stored.
   */
  readonly expectedVersion?: number;
}

/** What `save` answers for a versioned write whose expected version was not the stored one: nothing written. */
export const VERSION_CONFLICT = 0;

export interface AgentStateStore {
  /** The stored versions of these agents (0 when none), in one round trip. */
  versions(agents: readonly AgentRef[]): Promise<number[]>;
  /** The stored states (undefined when none), in one round trip. */
  load(agents: readonly AgentRef[]): Promise<Array<StoredAgentState | undefined>>;
  /**
   * Writes the states in one round trip; resolves to the new version of each (strictly increasing per
   * agent), or VERSION_CONFLICT for a versioned write that found another version (that one is not written;
   * the others are).
   */
  save(writes: readonly AgentStateWrite[]): Promise<number[]>;
}

/** Builds the store of one kind of state ('detector', 'localizer', 'correction', 'memory-trail'). */
export type AgentStateStores = (kind: string) => AgentStateStore;

/** In process (tests, embedded mode with eviction): the same semantics as Redis, copies in and out. */
export class InMemoryAgentStateStore implements AgentStateStore {
  private readonly entries = new Map<string, StoredAgentState>();

  async versions(agents: readonly AgentRef[]): Promise<number[]> {
    return agents.map((a) => this.entries.get(refKey(a))?.version ?? 0);
  }

  async load(agents: readonly AgentRef[]): Promise<Array<StoredAgentState | undefined>> {
    return agents.map((a) => {
      const e = this.entries.get(refKey(a));
      return e ? { version: e.version, state: e.state.slice() } : undefined;
    });
  }

  async save(writes: readonly AgentStateWrite[]): Promise<number[]> {
    return writes.map((w) => {
      const stored = this.entries.get(refKey(w))?.version ?? 0;
      if (w.expectedVersion !== undefined && w.expectedVersion !== stored) return VERSION_CONFLICT;
      const version = stored + 1;
      this.entries.set(refKey(w), { version, state: w.state.slice() });
      return version;
    });
  }

  /** Test hook: what is stored for an agent. */
  peek(agent: AgentRef): StoredAgentState | undefined {
    return this.entries.get(refKey(agent));
  }

  /** Test hook: stores bytes as they are (e.g. a corrupt document). */
  put(agent: AgentRef, version: number, state: Uint8Array): void {
    this.entries.set(refKey(agent), { version, state });
  }
}

function refKey(ref: AgentRef): string {
  return compositeKey(ref.tenantId, ref.agentId);
}

export { compositeKey };
