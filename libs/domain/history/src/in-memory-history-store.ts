/**
 * HistoryStore in process memory (embedded mode, tests): the same bounds and retention as the Redis
 * adapter, checked by the same contract suite. Lost when the process ends, as everything in embedded mode.
 */
import { systemClock } from '@wayfinder/clock';
import { compareRecords, type AgentEntry, type HistoryRecord } from './history-record';
import { DEFAULT_HISTORY_LIMITS, selectRecords, type HistoryLimits, type HistoryQuery, type HistoryStore } from './history-store.port';

interface AgentData {
  entry: AgentEntry;
  steps: HistoryRecord[];
  records: HistoryRecord[];
}

interface TenantData {
  agents: Map<string, AgentData>;
  byId: Map<string, HistoryRecord>;
  records: HistoryRecord[];
}

export interface InMemoryHistoryOptions extends Partial<HistoryLimits> {
  now?: () => number;
}

export class InMemoryHistoryStore implements HistoryStore {
  private readonly tenantData = new Map<string, TenantData>();
  private readonly limits: HistoryLimits;
  private readonly now: () => number;
  private appends = 0;

  constructor(options: InMemoryHistoryOptions = {}) {
    this.limits = { ...DEFAULT_HISTORY_LIMITS, ...options };
    this.now = options.now ?? systemClock.now;
  }

  async append(records: readonly HistoryRecord[]): Promise<number> {
    let added = 0;
    const cutoffs = new Map<string, number>();
    for (const record of records) {
      let cutoff = cutoffs.get(record.tenantId);
      if (cutoff === undefined) cutoffs.set(record.tenantId, (cutoff = this.cutoff(record.tenantId)));
      const ms = Date.parse(record.ts);
      if (ms < cutoff) continue;
      const tenant = this.tenant(record.tenantId);
      const known = tenant.byId.get(record.id);
      if (known && Date.parse(known.ts) >= cutoff) continue;
      tenant.byId.set(record.id, record);
      added++;
      let agent = tenant.agents.get(record.agentId);
      if (!agent) {
        agent = { entry: { agentId: record.agentId, taskId: record.taskId, runId: record.runId, firstSeen: record.ts, lastSeen: record.ts, lastSeq: null }, steps: [], records: [] };
        tenant.agents.set(record.agentId, agent);
      }
      const e = agent.entry;
      const newer = ms >= Date.parse(e.lastSeen);
      agent.entry = {
        agentId: e.agentId,
        taskId: newer ? record.taskId : e.taskId,
        runId: newer ? record.runId : e.runId,
        firstSeen: ms < Date.parse(e.firstSeen) ? record.ts : e.firstSeen,
        lastSeen: newer ? record.ts : e.lastSeen,
        lastSeq: record.kind === 'step' ? Math.max(e.lastSeq ?? -1, record.seq) : e.lastSeq,
      };
      if (record.kind === 'step') {
        agent.steps = bounded(insert(agent.steps, record), this.limits.maxStepsPerAgent, cutoff);
      } else {
        agent.records = bounded(insert(agent.records, record), this.limits.maxRecordsPerAgent, cutoff);
        tenant.records = bounded(insert(tenant.records, record), this.limits.maxRecordsPerTenant, cutoff);
      }
    }
    if ((this.appends += records.length) >= 4_096) this.prune();
    return added;
  }

  async agents(tenantId: string, query: { taskId?: string; since?: number } = {}): Promise<AgentEntry[]> {
    const cutoff = Math.max(this.cutoff(tenantId), query.since ?? -Infinity);
    const agents = [...(this.tenantData.get(tenantId)?.agents.values() ?? [])]
      .map((a) => a.entry)
      .filter((e) => Date.parse(e.lastSeen) >= cutoff && (query.taskId === undefined || e.taskId === query.taskId));
    return agents.sort((a, b) => Date.parse(b.lastSeen) - Date.parse(a.lastSeen) || (a.agentId < b.agentId ? -1 : 1));
  }

  async agent(tenantId: string, agentId: string): Promise<AgentEntry | undefined> {
    const entry = this.tenantData.get(tenantId)?.agents.get(agentId)?.entry;
    return entry && Date.parse(entry.lastSeen) >= this.cutoff(tenantId) ? entry : undefined;
  }

  async agentHistory(tenantId: string, agentId: string, query: HistoryQuery = {}): Promise<HistoryRecord[]> {
    const agent = this.tenantData.get(tenantId)?.agents.get(agentId);
    if (!agent) return [];
    const wantsSteps = !query.kinds || query.kinds.includes('step');
    const all = [...(wantsSteps ? agent.steps : []), ...agent.records].sort(compareRecords);
    return selectRecords(this.live(all, tenantId), query);
  }

  async tenantHistory(tenantId: string, query: HistoryQuery = {}): Promise<HistoryRecord[]> {
    return selectRecords(this.live(this.tenantData.get(tenantId)?.records ?? [], tenantId), { ...query, kinds: query.kinds?.filter((k) => k !== 'step') });
  }

  async get(tenantId: string, id: string): Promise<HistoryRecord | undefined> {
    const record = this.tenantData.get(tenantId)?.byId.get(id);
    return record && Date.parse(record.ts) >= this.cutoff(tenantId) ? record : undefined;
  }

  async tenants(): Promise<string[]> {
    return [...this.tenantData.entries()]
      .filter(([id, t]) => {
        const cutoff = this.cutoff(id);
        return [...t.agents.values()].some((a) => Date.parse(a.entry.lastSeen) >= cutoff);
      })
      .map(([id]) => id)
      .sort();
  }

  /** Ids are remembered for the retention (as the Redis adapter's record keys live): redelivery stays a no-op. */
  private prune(): void {
    this.appends = 0;
    for (const [tenantId, tenant] of this.tenantData) {
      const cutoff = this.cutoff(tenantId);
      for (const [id, r] of tenant.byId) if (Date.parse(r.ts) < cutoff) tenant.byId.delete(id);
      for (const [agentId, a] of tenant.agents) if (Date.parse(a.entry.lastSeen) < cutoff) tenant.agents.delete(agentId);
    }
  }

  private live(records: readonly HistoryRecord[], tenantId: string): HistoryRecord[] {
    const cutoff = this.cutoff(tenantId);
    return records.filter((r) => Date.parse(r.ts) >= cutoff);
  }

  /** The oldest ts the tenant keeps: its own retention (HistoryLimits.retentionOf) or the store's. */
  private cutoff(tenantId: string): number {
    return this.now() - (this.limits.retentionOf?.(tenantId) ?? this.limits.retentionMs);
  }

  private tenant(tenantId: string): TenantData {
    let tenant = this.tenantData.get(tenantId);
    if (!tenant) {
      tenant = { agents: new Map(), byId: new Map(), records: [] };
      this.tenantData.set(tenantId, tenant);
    }
    return tenant;
  }
}

function insert(list: HistoryRecord[], record: HistoryRecord): HistoryRecord[] {
  const last = list[list.length - 1];
  list.push(record);
  if (last && compareRecords(last, record) > 0) list.sort(compareRecords);
  return list;
}

/** Drops what fell out of retention or past the bound (the oldest first). */
function bounded(list: HistoryRecord[], max: number, cutoff: number): HistoryRecord[] {
  let drop = 0;
  while (drop < list.length && (list.length - drop > max || Date.parse(list[drop].ts) < cutoff)) drop++;
  return drop === 0 ? list : list.slice(drop);
}
