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
 * - the write is versioned (compare-and-set): an instance that lost the agent's partition cannot
 *   overwrite the newer state of its new owner; the conflict is counted, the agent reloaded and the batch
 *   retried;
 * - agents idle past their tenant's TTL (policy `stateIdleTtlMs`, else the deployment's), or beyond
 *   `maxAgents`, are evicted from memory; their state is in the store and comes back on their next event;
 * - on a rebalance, the agents of revoked partitions are written back and dropped (`dropPartitions`);
 * - when it follows the bus's rebalances (`followRebalances`), an agent it read or wrote since the last
 *   rebalance of any consumer group of the process is trusted as it is, with no version check before its
 *   batch: only a rebalance can give its partition to another instance, and after every rebalance each
 *   agent is checked once again. A member that lost its partition without noticing (a zombie) is still
 *   stopped by the versioned write.
 * Without a store (embedded mode, one process owns every agent) it only runs the batch.
 */
import { systemClock } from '@wayfinder/clock';
import type { AgentRef, AgentStateStore, AgentStateWrite } from './agent-state.store';
import { compositeKey, VERSION_CONFLICT } from './agent-state.store';
import type { Bus } from '@wayfinder/bus';

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
  /** A tenant's own idle time (its policy's `stateIdleTtlMs`); undefined: `idleTtlMs`. */
  readonly idleTtlFor?: (tenantId: string) => number | undefined;
  /** At most this many agents in memory; the least recently used are evicted first (default 200,000). */
  readonly maxAgents?: number;
  readonly now?: () => number;
  /** Told when an agent's stored state cannot be read (that agent starts over). */
  readonly onUnreadable?: (agent: AgentRef, error: unknown) => void;
  /** Told when a versioned write found a newer state (another instance wrote the agent): it is reloaded. */
  readonly onConflict?: (agents: readonly AgentRef[]) => void;
}

/** A batch's write met a newer stored state of these agents: they were dropped and the batch is retried. */
export class AgentStateConflict extends Error {
  constructor(readonly agents: readonly AgentRef[]) {
    super(`the stored state of ${agents.length} agent(s) changed under this instance (another instance owns them now, or did): reloaded, batch retried`);
    this.name = 'AgentStateConflict';
  }
}

/** One agent this process holds or has read: LRU order in `AgentEntries`. */
class Entry implements AgentRef {
  /** The less and the more recently used entries (null: none). */
  older: Entry | null = null;
  newer: Entry | null = null;

  constructor(
    readonly tenantId: string,
    readonly agentId: string,
    /** When a batch last touched it, in ms after the entries' origin (a small integer: no heap number). */
    public at: number,
    /** The store version this process last read or wrote (0: none stored). */
    public version: number,
    /** The partition its last batch came from (-1 unknown): dropped when that partition is revoked. */
    public partition: number,
    /** The rebalance epoch in which `version` was last confirmed by the store (-1: never). */
    public verified: number,
  ) {}
}

/** Offsets of `at` past this are rebased (V8 keeps integers within ±2^30 in the field: no heap number). */
const MAX_AT_OFFSET = 2 ** 30;

/**
 * The agents held, by tenant then agent (the ids' own strings: no composite key string per agent), in
 * least-recently-used order through links of their own (touching an agent moves it without deleting and
 * re-adding a map entry, whose dead slots kept the map's table two to three times its live size; issue
 * #14). Iteration is oldest first and survives deleting the entry at hand.
 */
class AgentEntries {
  private readonly tenants = new Map<string, Map<string, Entry>>();
  private oldest: Entry | null = null;
  private newest: Entry | null = null;
  private count = 0;

  constructor(private origin: number) {}

  get size(): number {
    return this.count;
  }

  get(ref: AgentRef): Entry | undefined {
    return this.tenants.get(ref.tenantId)?.get(ref.agentId);
  }

  /** When the entry was last touched (ms, the clock's). */
  atOf(entry: Entry): number {
    return entry.at + this.origin;
  }

  /** A new entry, the most recently used (replacing any entry of the agent). */
  add(ref: AgentRef, atMs: number, version: number, partition: number, verified: number): Entry {
    this.delete(ref);
    const entry = new Entry(ref.tenantId, ref.agentId, this.offset(atMs), version, partition, verified);
    let tenant = this.tenants.get(ref.tenantId);
    if (!tenant) {
      tenant = new Map();
      this.tenants.set(ref.tenantId, tenant);
    }
    tenant.set(ref.agentId, entry);
    this.count++;
    this.link(entry);
    return entry;
  }

  /** Touched at `atMs`: the most recently used. */
  touch(entry: Entry, atMs: number): void {
    entry.at = this.offset(atMs);
    if (this.newest === entry) return;
    this.unlink(entry);
    this.link(entry);
  }

  delete(ref: AgentRef): boolean {
    const tenant = this.tenants.get(ref.tenantId);
    const entry = tenant?.get(ref.agentId);
    if (!tenant || !entry) return false;
    tenant.delete(ref.agentId);
    if (tenant.size === 0) this.tenants.delete(ref.tenantId);
    this.count--;
    this.unlink(entry);
    return true;
  }

  /** Least recently used first; deleting the entry at hand is safe. */
  *[Symbol.iterator](): IterableIterator<Entry> {
    let entry = this.oldest;
    while (entry) {
      const next = entry.newer;
      yield entry;
      entry = next;
    }
  }

  private link(entry: Entry): void {
    entry.older = this.newest;
    entry.newer = null;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  private unlink(entry: Entry): void {
    if (entry.older) entry.older.newer = entry.newer;
    else if (this.oldest === entry) this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else if (this.newest === entry) this.newest = entry.older;
    entry.older = null;
    entry.newer = null;
  }

  /** `atMs` as an offset from the origin, which moves (every entry with it) once the offsets grow large. */
  private offset(atMs: number): number {
    const offset = atMs - this.origin;
    if (offset <= MAX_AT_OFFSET && offset >= -MAX_AT_OFFSET) return offset;
    const delta = offset;
    for (let e = this.oldest; e; e = e.newer) e.at -= delta;
    this.origin = atMs;
    return 0;
  }
}

export class DurableAgentStates {
  /**
   * Every agent this process holds, least recently used first, with the store version it last read or
   * wrote: one small object per agent in a map per tenant (DESIGN §7 memory budget).
   */
  private readonly entries: AgentEntries;
  private readonly dirty = new Map<string, AgentRef>();
  /** Agents of batches in flight: never evicted under a batch. */
  private readonly pinned = new Map<string, number>();
  private readonly idleTtlMs: number;
  private readonly maxAgents: number;
  private readonly now: () => number;
  private evictions = 0;
  private conflictCount = 0;
  /** Flushes run one after another, so a versioned write always expects the version the previous one wrote. */
  private flushing: Promise<void> = Promise.resolve();
  /** Rebalances seen (`followRebalances`); undefined: not followed, every batch checks the stored versions. */
  private epoch: number | undefined;

  constructor(
    private readonly holder: AgentStateHolder,
    private readonly store: AgentStateStore | undefined,
    private readonly options: DurableAgentStatesOptions = {},
  ) {
    this.idleTtlMs = options.idleTtlMs ?? 15 * 60_000;
    this.maxAgents = options.maxAgents ?? 200_000;
    this.now = options.now ?? systemClock.now;
    this.entries = new AgentEntries(this.now());
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Trust the agents confirmed since the last rebalance (see the header): call once, before the bus
   * starts, with the bus whose consumer groups deliver this state's batches. No-op on a bus without
   * rebalances (in process): there every batch checks the stored versions.
   */
  followRebalances(bus: Pick<Bus, 'onAssignment'>): void {
    if (!bus.onAssignment || this.epoch !== undefined) return;
    this.epoch = 0;
    bus.onAssignment(() => {
      this.epoch = (this.epoch ?? 0) + 1;
    });
  }

  get evicted(): number {
    return this.evictions;
  }

  /** Versioned writes that found a newer stored state (each agent counted once per write). */
  get conflicts(): number {
    return this.conflictCount;
  }

  /**
   * Runs `work` over the agents' state: restore, work, write back (see the header). Resolves with what
   * `work` returned once the state is stored; rejects (after dropping the touched agents' state) when
   * `work` or the write fails, so the caller's batch is retried from the stored state. `partition`: where
   * the batch came from, for `dropPartitions` on a rebalance.
   */
  async run<T>(agents: readonly AgentRef[], work: () => Promise<T> | T, partition = -1): Promise<T> {
    const keys = agents.map(keyOf);
    for (const k of keys) this.pinned.set(k, (this.pinned.get(k) ?? 0) + 1);
    try {
      if (this.store) await this.restore(agents);
      let result: T;
      try {
        result = await work();
      } catch (error) {
        this.drop(agents, keys);
        throw error;
      }
      this.markDirty(agents, partition);
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
      if (this.store) await this.restore(agents);
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
  markDirty(agents: readonly AgentRef[], partition = -1): void {
    const at = this.now();
    for (const ref of agents) {
      const k = keyOf(ref);
      if (this.store) this.dirty.set(k, ref);
      const entry = this.entries.get(ref);
      if (!entry) {
        this.entries.add(ref, at, 0, partition, -1);
        continue;
      }
      // Most recently used last.
      this.entries.touch(entry, at);
      if (partition >= 0) entry.partition = partition;
    }
  }

  /**
   * Writes every dirty agent in one round trip, each only over the version this process last read or
   * wrote (compare-and-set). An agent whose stored version moved (another instance wrote it: its partition
   * moved) is not written: it is dropped from memory, counted, and the flush rejects with
   * AgentStateConflict, so the batch is retried from the newer state.
   */
  flush(): Promise<void> {
    const next = this.flushing.then(() => this.flushNow());
    this.flushing = next.catch(() => undefined);
    return next;
  }

  private async flushNow(): Promise<void> {
    if (!this.store || this.dirty.size === 0) {
      this.dirty.clear();
      return;
    }
    const refs = [...this.dirty.values()];
    this.dirty.clear();
    const epoch = this.epoch ?? -1;
    const writes: AgentStateWrite[] = [];
    for (const ref of refs) {
      const state = this.holder.exportAgentState(ref.tenantId, ref.agentId);
      if (state) writes.push({ tenantId: ref.tenantId, agentId: ref.agentId, state, expectedVersion: this.entries.get(ref)?.version ?? 0 });
    }
    let versions: number[];
    try {
      versions = await this.store.save(writes);
    } catch (error) {
      for (const ref of refs) this.dirty.set(keyOf(ref), ref);
      throw error;
    }
    const conflicts: AgentRef[] = [];
    writes.forEach((w, i) => {
      if (versions[i] === VERSION_CONFLICT) {
        conflicts.push({ tenantId: w.tenantId, agentId: w.agentId });
        this.holder.forgetAgent(w.tenantId, w.agentId);
        this.entries.delete(w);
        return;
      }
      // A versioned write that went through confirms the version (a later one of this process may have too).
      const entry = this.entries.get(w);
      if (entry) {
        if (versions[i] >= entry.version) entry.verified = epoch;
        entry.version = Math.max(entry.version, versions[i]);
      } else this.entries.add(w, this.now(), versions[i], -1, epoch);
    });
    if (conflicts.length > 0) {
      this.conflictCount += conflicts.length;
      this.options.onConflict?.(conflicts);
      throw new AgentStateConflict(conflicts);
    }
  }

  /**
   * Evicts the agents idle past their tenant's TTL (their state is stored); resolves to how many. Call it
   * from a timer: agents of batches in flight and agents not yet written back stay.
   */
  async evictIdle(): Promise<number> {
    if (!this.store) return 0;
    await this.flush();
    const now = this.now();
    const ttls = new Map<string, number>();
    let count = 0;
    for (const e of this.entries) {
      let ttl = ttls.get(e.tenantId);
      if (ttl === undefined) {
        ttl = this.options.idleTtlFor?.(e.tenantId) ?? this.idleTtlMs;
        ttls.set(e.tenantId, ttl);
      }
      // Least recently used first: with one TTL for everyone, the first agent still fresh ends the scan.
      if (this.entries.atOf(e) > now - ttl) {
        if (!this.options.idleTtlFor) break;
        continue;
      }
      if (this.evict(e)) count++;
    }
    return count;
  }

  /**
   * A rebalance took these partitions away: their agents' state is written back, then dropped from
   * memory (the new owner restores it from the store; if a partition comes back, its agents restore on
   * their next event). Resolves to how many agents were dropped. Agents of batches still in flight stay;
   * their write is versioned, so it cannot overwrite what the new owner writes.
   */
  async dropPartitions(partitions: Iterable<number>): Promise<number> {
    const revoked = new Set(partitions);
    if (revoked.size === 0) return 0;
    await this.flush().catch(() => undefined);
    let count = 0;
    for (const e of this.entries) {
      const k = keyOf(e);
      if (!revoked.has(e.partition) || this.pinned.has(k) || this.dirty.has(k)) continue;
      this.holder.forgetAgent(e.tenantId, e.agentId);
      this.entries.delete(e);
      count++;
    }
    return count;
  }

  private evictOverflow(): void {
    if (!this.store || this.entries.size <= this.maxAgents) return;
    for (const e of this.entries) {
      if (this.entries.size <= this.maxAgents) break;
      this.evict(e);
    }
  }

  private evict(ref: AgentRef): boolean {
    const k = keyOf(ref);
    if (this.pinned.has(k) || this.dirty.has(k)) return false;
    this.holder.forgetAgent(ref.tenantId, ref.agentId);
    this.entries.delete(ref);
    this.evictions++;
    return true;
  }

  private async restore(allAgents: readonly AgentRef[]): Promise<void> {
    // Agents confirmed since the last rebalance need no check (see followRebalances).
    const epoch = this.epoch;
    let agents = allAgents;
    if (epoch !== undefined) {
      const unsure = allAgents.filter((a) => this.entries.get(a)?.verified !== epoch);
      if (unsure.length === 0) return;
      if (unsure.length < allAgents.length) agents = unsure;
    }
    const before = agents.map((a) => this.entries.get(a)?.version);
    const versions = await this.store!.versions(agents);
    // Those whose stored version is the one held are confirmed as of the epoch the check began in.
    agents.forEach((a, i) => {
      const entry = this.entries.get(a);
      if (entry && epoch !== undefined && entry.version === versions[i]) entry.verified = epoch;
    });
    // Another batch of this process may have written an agent while we waited: ours is then the newest.
    const stale = agents.map((_, i) => i).filter((i) => versions[i] !== (before[i] ?? 0) && this.entries.get(agents[i])?.version === before[i]);
    if (stale.length === 0) return;
    const loaded = await this.store!.load(stale.map((i) => agents[i]));
    stale.forEach((i, j) => {
      const agent = agents[i];
      if (this.entries.get(agent)?.version !== before[i]) return;
      const stored = loaded[j];
      if (!stored) {
        this.holder.forgetAgent(agent.tenantId, agent.agentId);
        this.entries.delete(agent);
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
      const entry = this.entries.get(agent);
      if (entry) {
        entry.version = stored.version;
        entry.verified = epoch ?? -1;
      } else this.entries.add(agent, this.now(), stored.version, -1, epoch ?? -1);
    });
  }

  private drop(agents: readonly AgentRef[], keys: readonly string[]): void {
    if (!this.store) return;
    agents.forEach((a, i) => {
      this.holder.forgetAgent(a.tenantId, a.agentId);
      this.dirty.delete(keys[i]);
      this.entries.delete(a);
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

/**
 * Restore and drop on partition assignment (DESIGN §7): after each rebalance of the service's consumer
 * group, the partitions of `topic` this member no longer holds are written back and their agents dropped
 * from memory; agents of partitions it gains restore from the store on their first event (`run`). It also
 * makes the states follow the bus's rebalances (`followRebalances`). No-op on a bus without rebalances
 * (in process).
 */
export function dropStateOfRevokedPartitions(
  bus: Pick<Bus, 'onAssignment'>,
  groupId: string,
  topic: string,
  states: DurableAgentStates,
  onDropped?: (agents: number, revoked: readonly number[]) => void,
  onError?: (error: unknown) => void,
): void {
  states.followRebalances(bus);
  let held: ReadonlySet<number> | undefined;
  bus.onAssignment?.((group, assignment) => {
    if (group !== groupId) return;
    const now = new Set(assignment[topic] ?? []);
    const revoked = held ? [...held].filter((p) => !now.has(p)) : [];
    held = now;
    if (revoked.length === 0) return;
    states.dropPartitions(revoked).then((n) => onDropped?.(n, revoked), (error: unknown) => onError?.(error));
  });
}
