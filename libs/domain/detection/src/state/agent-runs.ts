/**
 * Per (tenant, agent, run) state of a plug-in detector, shaped for 100k+ agents per worker (DESIGN §7
 * memory budget): tenant → agent → the run's state; the agent's runs go in a small wrapper holding the
 * most recently used run in fields (and the others in a Map only once it has several). A state type that
 * can carry its own run id (`RunKey`) needs no wrapper while the agent has one run: the state itself is
 * the map's value (issue #14: a 48-byte object per plug-in per agent less). No composite key string per
 * agent (the ids are the step's own strings, shared with the engine's state), no Map per agent for the
 * common case of one run, and ids with any characters never meet. At most `maxRuns` runs per agent,
 * least recently used out.
 */
export class AgentRuns<T extends object> {
  private readonly tenants = new Map<string, Map<string, T | Runs<T>>>();
  /** The engine's agents, when it hosts them (`useAgentSlots`): then `tenants` stays empty. */
  private host: AgentSlots | undefined;
  private slot = -1;

  /** `key`: where a state keeps its run id, when it can (then an agent's single run is held bare). */
  constructor(
    private readonly maxRuns: number,
    private readonly key?: RunKey<T>,
  ) {}

  /**
   * Keep each agent's runs in a slot of the engine's own per-agent state instead of a tenant → agent map
   * of its own (issue #14: one map entry per plug-in per agent less, ~55 bytes at 33,000 agents per
   * tenant); they leave memory with the engine's agent. Once, before any state is held.
   */
  useAgentSlots(slots: AgentSlots): void {
    if (this.host) throw new Error('plug-in state is already kept by an engine: a hosted detector plugs into one engine only');
    if (this.tenants.size > 0) throw new Error('plug-in state is held already: hand it to an engine before its first step');
    this.host = slots;
    this.slot = slots.claim();
  }

  /** The run's state, made the agent's most recently used; undefined when there is none. */
  get(tenantId: string, agentId: string, runId: string): T | undefined {
    const held = this.held(tenantId, agentId);
    if (held === undefined) return undefined;
    if (held instanceof Runs) return held.use(runId);
    return (this.key as RunKey<T>).get(held) === runId ? held : undefined;
  }

  /** The run's state, created (as the most recently used) when there is none. */
  getOrCreate(tenantId: string, agentId: string, runId: string, create: () => T): T {
    const held = this.held(tenantId, agentId);
    if (held === undefined) {
      const value = create();
      this.put(tenantId, agentId, this.single(runId, value));
      return value;
    }
    if (held instanceof Runs) {
      const found = held.use(runId);
      if (found !== undefined) return found;
      const value = create();
      this.key?.set(value, runId);
      held.add(runId, value, this.maxRuns);
      return value;
    }
    const key = this.key as RunKey<T>;
    if (key.get(held) === runId) return held;
    // A second run: the agent's runs get their wrapper.
    const runs = new Runs(key.get(held), held);
    const value = create();
    key.set(value, runId);
    runs.add(runId, value, this.maxRuns);
    this.put(tenantId, agentId, runs);
    return value;
  }

  /** The agent's runs, least recently used first (empty when it has none). */
  runs(tenantId: string, agentId: string): Array<[string, T]> {
    const held = this.held(tenantId, agentId);
    if (held === undefined) return [];
    return held instanceof Runs ? held.entries() : [[(this.key as RunKey<T>).get(held), held]];
  }

  /** Replaces the agent's runs (given least recently used first; the newest `maxRuns` are kept). */
  replace(tenantId: string, agentId: string, entries: ReadonlyArray<readonly [string, T]>): void {
    this.forget(tenantId, agentId);
    const kept = entries.slice(-this.maxRuns);
    if (kept.length === 0) return;
    let held: T | Runs<T>;
    if (kept.length === 1) held = this.single(kept[0][0], kept[0][1]);
    else {
      const runs = new Runs(kept[0][0], kept[0][1]);
      this.key?.set(kept[0][1], kept[0][0]);
      for (let i = 1; i < kept.length; i++) {
        this.key?.set(kept[i][1], kept[i][0]);
        runs.add(kept[i][0], kept[i][1], this.maxRuns);
      }
      held = runs;
    }
    this.put(tenantId, agentId, held);
  }

  forget(tenantId: string, agentId: string): void {
    if (this.host) {
      // Gone already when the engine forgot its agent first (it does): nothing to clear then.
      this.host.set(tenantId, agentId, this.slot, undefined);
      return;
    }
    const tenant = this.tenants.get(tenantId);
    if (!tenant || !tenant.delete(agentId)) return;
    if (tenant.size === 0) this.tenants.delete(tenantId);
  }

  /** Agents held (for tests and gauges). */
  get agentCount(): number {
    if (this.host) return this.host.count(this.slot);
    let n = 0;
    for (const tenant of this.tenants.values()) n += tenant.size;
    return n;
  }

  private held(tenantId: string, agentId: string): T | Runs<T> | undefined {
    if (this.host) return this.host.get(tenantId, agentId, this.slot) as T | Runs<T> | undefined;
    return this.tenants.get(tenantId)?.get(agentId);
  }

  private put(tenantId: string, agentId: string, held: T | Runs<T>): void {
    if (this.host) {
      if (!this.host.set(tenantId, agentId, this.slot, held)) throw new Error(`plug-in state for an agent its engine does not hold (${JSON.stringify(tenantId)}, ${JSON.stringify(agentId)}): a hosted detector runs through its engine only`);
      return;
    }
    let tenant = this.tenants.get(tenantId);
    if (!tenant) {
      tenant = new Map();
      this.tenants.set(tenantId, tenant);
    }
    tenant.set(agentId, held);
  }

  /** An agent's only run: bare when its state keeps the run id, else in a wrapper. */
  private single(runId: string, value: T): T | Runs<T> {
    if (!this.key) return new Runs(runId, value);
    this.key.set(value, runId);
    return value;
  }
}

/**
 * Per-agent slots of an engine's own agent state, where hosted plug-ins keep their runs (the engine's
 * `DetectionEngine`): one slot per plug-in, the agent's state is the container.
 */
export interface AgentSlots {
  /** A new slot, for one plug-in. */
  claim(): number;
  /** The agent's value in the slot; undefined when empty or the engine holds no such agent. */
  get(tenantId: string, agentId: string, slot: number): unknown;
  /** Sets (undefined: clears) the agent's slot; false when the engine holds no such agent (nothing set). */
  set(tenantId: string, agentId: string, slot: number, value: unknown): boolean;
  /** Agents with something in the slot. */
  count(slot: number): number;
}

/** Where a run's state keeps its run id (a field of its own, set by AgentRuns only). */
export interface RunKey<T> {
  get(state: T): string;
  set(state: T, runId: string): void;
}

/** For states with a `runId` field. */
export const RUN_ID_FIELD: RunKey<{ runId: string }> = {
  get: (state) => state.runId,
  set: (state, runId) => {
    state.runId = runId;
  },
};

class Runs<T> {
  /** The other runs, least recently used first; null while the agent has had one run. */
  older: Map<string, T> | null = null;

  constructor(
    public key: string,
    public value: T,
  ) {}

  use(runId: string): T | undefined {
    if (this.key === runId) return this.value;
    const older = this.older;
    if (!older) return undefined;
    const found = older.get(runId);
    if (found === undefined) return undefined;
    older.delete(runId);
    older.set(this.key, this.value);
    this.key = runId;
    this.value = found;
    return found;
  }

  add(runId: string, value: T, maxRuns: number): void {
    const older = this.older ?? (this.older = new Map());
    older.set(this.key, this.value);
    while (older.size >= Math.max(1, maxRuns)) older.delete(older.keys().next().value as string);
    this.key = runId;
    this.value = value;
  }

  entries(): Array<[string, T]> {
    const out: Array<[string, T]> = this.older ? [...this.older] : [];
    out.push([this.key, this.value]);
    return out;
  }
}
