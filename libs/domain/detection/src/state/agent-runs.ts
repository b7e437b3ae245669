/**
 * Per (tenant, agent, run) state of a plug-in detector, shaped for 100k+ agents per worker (DESIGN §7
 * memory budget): tenant → agent → one small object holding the most recently used run in fields; the
 * agent's other runs go in a Map only once it has several. No composite key string per agent (the ids
 * are the step's own strings, shared with the engine's state), no Map per agent for the common case of
 * one run, and ids with any characters never meet. At most `maxRuns` runs per agent, least recently used out.
 */
export class AgentRuns<T> {
  private readonly tenants = new Map<string, Map<string, Runs<T>>>();

  constructor(private readonly maxRuns: number) {}

  /** The run's state, made the agent's most recently used; undefined when there is none. */
  get(tenantId: string, agentId: string, runId: string): T | undefined {
    const runs = this.tenants.get(tenantId)?.get(agentId);
    return runs ? runs.use(runId) : undefined;
  }

  /** The run's state, created (as the most recently used) when there is none. */
  getOrCreate(tenantId: string, agentId: string, runId: string, create: () => T): T {
    let tenant = this.tenants.get(tenantId);
    if (!tenant) {
      tenant = new Map();
      this.tenants.set(tenantId, tenant);
    }
    const runs = tenant.get(agentId);
    if (!runs) {
      const value = create();
      tenant.set(agentId, new Runs(runId, value));
      return value;
    }
    const found = runs.use(runId);
    if (found !== undefined) return found;
    const value = create();
    runs.add(runId, value, this.maxRuns);
    return value;
  }

  /** The agent's runs, least recently used first (empty when it has none). */
  runs(tenantId: string, agentId: string): Array<[string, T]> {
    return this.tenants.get(tenantId)?.get(agentId)?.entries() ?? [];
  }

  /** Replaces the agent's runs (given least recently used first; the newest `maxRuns` are kept). */
  replace(tenantId: string, agentId: string, entries: ReadonlyArray<readonly [string, T]>): void {
    this.forget(tenantId, agentId);
    const kept = entries.slice(-this.maxRuns);
    if (kept.length === 0) return;
    const runs = new Runs(kept[0][0], kept[0][1]);
    for (let i = 1; i < kept.length; i++) runs.add(kept[i][0], kept[i][1], this.maxRuns);
    let tenant = this.tenants.get(tenantId);
    if (!tenant) {
      tenant = new Map();
      this.tenants.set(tenantId, tenant);
    }
    tenant.set(agentId, runs);
  }

  forget(tenantId: string, agentId: string): void {
    const tenant = this.tenants.get(tenantId);
    if (!tenant || !tenant.delete(agentId)) return;
    if (tenant.size === 0) this.tenants.delete(tenantId);
  }

  /** Agents held (for tests and gauges). */
  get agentCount(): number {
    let n = 0;
    for (const tenant of this.tenants.values()) n += tenant.size;
    return n;
  }
}

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
