/**
 * The one durable, versioned per-agent state mechanism of the stream services (DESIGN §7). A service's
 * domain object keeps its agents' state in memory (an `AgentStateHolder`: the detection engine, the
 * correction engine, the localizers, the memory trails); this wraps every batch so that:
 * - before the batch, the agents it touches are restored from the store when the store holds a version
 *   this process did not write or read (first event after a restart, a partition that moved here, an
 *   agent evicted earlier);
 * - after the batch, the touched agents are written back in one coalesced round trip, before the bus
 *   commits the offsets that produced the state;
 * - when the batch fails, the touched agents are dropped from memory, so the retry starts from the state
 *   the store holds (the one that matches the committed offsets) and produces the same outputs again;
 * - agents idle past the policy TTL (or beyond `maxAgents`) are evicted from memory; their state is in
 *   the store and comes back on their next event.
 * Without a store (embedded mode, one process owns every agent) it only runs the batch.
 */
import { systemClock } from '@wayfinder/clock';
import type { AgentRef, AgentStateStore, AgentStateWrite } from './agent-state.store';
import { compositeKey } from './agent-state.store';

/** What a domain object offers to have its per-agent state kept durable. */
export interface AgentStateHolder {
  /** The agent's state as bytes, or undefined when the holder keeps nothing for it. */
  exportAgentState(tenantId: string, agentId: string): Uint8Array | undefined;
  /** Replaces the agent's state; throws when the bytes cannot be read. */
  importAgentState(tenantId: string, agentId: string, state: Uint8Array): void;
  forgetAgent(tenantId: string, agentId: string): void;
}

export interface DurableAgentStatesOptions {
  /** Agents untouched for this long are evicted from memory (default 15 min). */
  readonly idleTtlMs?: number;
  /** At most this many agents in memory; the least recently used are evicted first (default 200,000). */
  readonly maxAgents?: number;
  readonly now?: () => number;
  /** Told when an agent's stored state cannot be read (that agent starts over). */
  readonly onUnreadable?: (agent: AgentRef, error: unknown) => void;
}

interface Resident {
  readonly ref: AgentRef;
  at: number;
}

export class DurableAgentStates {
  /** The store version of each agent this process last read or wrote. */
  private readonly known = new Map<string, number>();
  /** Agents in memory, least recently used first. */
  private readonly resident = new Map<string, Resident>();
  private readonly dirty = new Map<string, AgentRef>();
  /** Agents of batches in flight: never evicted under a batch. */
  private readonly pinned = new Map<string, number>();
  private readonly idleTtlMs: number;
  private readonly maxAgents: number;
  private readonly now: () => number;
  private evictions = 0;

  constructor(
    private readonly holder: AgentStateHolder,
    private readonly store: AgentStateStore | undefined,
    private readonly options: DurableAgentStatesOptions = {},
  ) {
    this.idleTtlMs = options.idleTtlMs ?? 15 * 60_000;
    this.maxAgents = options.maxAgents ?? 200_000;
    this.now = options.now ?? systemClock.now;
  }

  get size(): number {
    return this.resident.size;
  }

  get evicted(): number {
    return this.evictions;
  }

  /**
   * Runs `work` over the agents' state: restore, work, write back (see the header). Resolves with what
   * `work` returned once the state is stored; rejects (after dropping the touched agents' state) when
   * `work` or the write fails, so the caller's batch is retried from the stored state.
   */
  async run<T>(agents: readonly AgentRef[], work: () => Promise<T> | T): Promise<T> {
    const keys = agents.map(keyOf);
    for (const k of keys) this.pinned.set(k, (this.pinned.get(k) ?? 0) + 1);
    try {
      if (this.store) await this.restore(agents, keys);
      let result: T;
      try {
        result = await work();
      } catch (error) {
        this.drop(agents, keys);
        throw error;
      }
      this.markDirty(agents);
      try {
        await this.flush();
      } catch (error) {
        this.drop(agents, keys);
        throw error;
      }
      return result;
    } finally {
      for (const k of keys) {
        const n = (this.pinned.get(k) ?? 1) - 1;
        if (n <= 0) this.pinned.delete(k);
        else this.pinned.set(k, n);
      }
      this.evictOverflow();
    }
  }

  /**
   * Runs `read` over the agents' state restored from the store (a query: an HTTP read of an agent the
   * stream has not touched in this process, or that was evicted); nothing is marked for writing.
   */
  async read<T>(agents: readonly AgentRef[], read: () => Promise<T> | T): Promise<T> {
    const keys = agents.map(keyOf);
    for (const k of keys) this.pinned.set(k, (this.pinned.get(k) ?? 0) + 1);
    try {
      if (this.store) await this.restore(agents, keys);
      return await read();
    } finally {
      for (const k of keys) {
        const n = (this.pinned.get(k) ?? 1) - 1;
        if (n <= 0) this.pinned.delete(k);
        else this.pinned.set(k, n);
      }
    }
  }

  /** Agents whose state changed outside a batch (a timer): written back by the next flush. */
  markDirty(agents: readonly AgentRef[]): void {
    const at = this.now();
    for (const ref of agents) {
      const k = keyOf(ref);
      if (this.store) this.dirty.set(k, ref);
      this.resident.delete(k);
      this.resident.set(k, { ref, at });
    }
  }

  /** Writes every dirty agent in one round trip. */
  async flush(): Promise<void> {
    if (!this.store || this.dirty.size === 0) {
      this.dirty.clear();
      return;
    }
    const refs = [...this.dirty.values()];
    this.dirty.clear();
    const writes: AgentStateWrite[] = [];
    for (const ref of refs) {
      const state = this.holder.exportAgentState(ref.tenantId, ref.agentId);
      if (state) writes.push({ tenantId: ref.tenantId, agentId: ref.agentId, state });
    }
    let versions: number[];
    try {
      versions = await this.store.save(writes);
    } catch (error) {
      for (const ref of refs) this.dirty.set(keyOf(ref), ref);
      throw error;
    }
    writes.forEach((w, i) => {
      const k = keyOf(w);
      this.known.set(k, Math.max(this.known.get(k) ?? 0, versions[i]));
    });
  }

  /**
   * Evicts the agents idle past the TTL (their state is stored); resolves to how many. Call it from a
   * timer: agents of batches in flight and agents not yet written back stay.
   */
  async evictIdle(): Promise<number> {
    if (!this.store) return 0;
    await this.flush();
    const cutoff = this.now() - this.idleTtlMs;
    let count = 0;
    for (const [k, r] of this.resident) {
      if (r.at > cutoff) break;
      if (this.evict(k, r.ref)) count++;
    }
    return count;
  }

  private evictOverflow(): void {
    if (!this.store || this.resident.size <= this.maxAgents) return;
    for (const [k, r] of this.resident) {
      if (this.resident.size <= this.maxAgents) break;
      this.evict(k, r.ref);
    }
  }

  private evict(k: string, ref: AgentRef): boolean {
    if (this.pinned.has(k) || this.dirty.has(k)) return false;
    this.holder.forgetAgent(ref.tenantId, ref.agentId);
    this.resident.delete(k);
    this.known.delete(k);
    this.evictions++;
    return true;
  }

  private async restore(agents: readonly AgentRef[], keys: readonly string[]): Promise<void> {
    const before = keys.map((k) => this.known.get(k));
    const versions = await this.store!.versions(agents);
    // Another batch of this process may have written an agent while we waited: ours is then the newest.
    const stale = agents.map((_, i) => i).filter((i) => versions[i] !== (before[i] ?? 0) && this.known.get(keys[i]) === before[i]);
    if (stale.length === 0) return;
    const loaded = await this.store!.load(stale.map((i) => agents[i]));
    stale.forEach((i, j) => {
      const agent = agents[i];
      const k = keys[i];
      if (this.known.get(k) !== before[i]) return;
      const stored = loaded[j];
      if (!stored) {
        this.holder.forgetAgent(agent.tenantId, agent.agentId);
        this.known.delete(k);
        return;
      }
      try {
        this.holder.importAgentState(agent.tenantId, agent.agentId, stored.state);
      } catch (error) {
        // Unreadable (corrupt, or written by an incompatible build): this agent starts over rather than
        // the batch failing on every redelivery.
        this.holder.forgetAgent(agent.tenantId, agent.agentId);
        this.options.onUnreadable?.(agent, error);
      }
      this.known.set(k, stored.version);
    });
  }

  private drop(agents: readonly AgentRef[], keys: readonly string[]): void {
    if (!this.store) return;
    agents.forEach((a, i) => {
      this.holder.forgetAgent(a.tenantId, a.agentId);
      this.known.delete(keys[i]);
      this.dirty.delete(keys[i]);
      this.resident.delete(keys[i]);
    });
  }
}

function keyOf(ref: AgentRef): string {
  return compositeKey(ref.tenantId, ref.agentId);
}

/** The distinct agents of a batch, in first-seen order. */
export function distinctAgents<T>(items: readonly T[], refOf: (item: T) => AgentRef): AgentRef[] {
  const seen = new Map<string, AgentRef>();
  for (const item of items) {
    const r = refOf(item);
    const k = keyOf(r);
    if (!seen.has(k)) seen.set(k, { tenantId: r.tenantId, agentId: r.agentId });
  }
  return [...seen.values()];
}
