/**
 * The HistoryStore port (DESIGN §13). Adapters: InMemoryHistoryStore (embedded mode, tests) and
 * RedisHistoryStore (libs/platform/redis); both pass historyStoreContract. Every read names a tenant:
 * no call can return another tenant's records, whatever ids they share.
 */
import type { AgentEntry, HistoryKind, HistoryRecord } from './history-record';

export interface HistoryLimits {
  /** Records older than this (by their ts, against the store's clock) are dropped and never returned. Default 7 days. */
  readonly retentionMs: number;
  /**
   * A tenant's own retention (its policy's `historyRetentionMs`, bounded by the operator: retentionOfTenant),
   * read at every append and read, so a policy change applies at once; absent: `retentionMs` for all.
   */
  readonly retentionOf?: (tenantId: string) => number;
  /** Step summaries kept per agent (the newest). Default 500. */
  readonly maxStepsPerAgent: number;
  /** Other records kept per agent (the newest). Default 500. */
  readonly maxRecordsPerAgent: number;
  /** Non-step records kept per tenant for tenant-wide reads (the newest). Default 10,000. */
  readonly maxRecordsPerTenant: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = {
  retentionMs: 7 * 24 * 60 * 60 * 1000,
  maxStepsPerAgent: 500,
  maxRecordsPerAgent: 500,
  maxRecordsPerTenant: 10_000,
};

/** The operator's bounds on history retention: the default of a tenant that sets none, and the most any tenant may set. */
export interface HistoryRetention {
  readonly defaultMs: number;
  /** WAYFINDER_HISTORY_RETENTION_MAX_MS: a tenant's policy asking more is refused, and clamped here if it came another way. */
  readonly maxMs: number;
}

/** WAYFINDER_HISTORY_RETENTION_MAX_MS when unset: 30 days. */
export const DEFAULT_HISTORY_RETENTION_MAX_MS = 30 * 24 * 60 * 60 * 1000;

/** The bounds when the operator sets none: 7 days by default, at most 30. */
export const DEFAULT_HISTORY_RETENTION: HistoryRetention = { defaultMs: DEFAULT_HISTORY_LIMITS.retentionMs, maxMs: DEFAULT_HISTORY_RETENTION_MAX_MS };

/** A tenant's retention: what its policy asks (or the default), never past the operator's maximum. */
export function retentionOfTenant(retention: HistoryRetention, askedMs: number | undefined): number {
  return Math.min(askedMs ?? retention.defaultMs, retention.maxMs);
}

export interface HistoryQuery {
  readonly kinds?: readonly HistoryKind[];
  /** Epoch ms, inclusive. */
  readonly since?: number;
  /** Epoch ms, inclusive. */
  readonly until?: number;
  readonly taskId?: string;
  /** At most this many, the newest (returned oldest first). */
  readonly limit?: number;
}

export interface HistoryStore {
  /** Writes records; a record whose (tenant, id) is already stored is skipped. Resolves with how many were new. */
  append(records: readonly HistoryRecord[]): Promise<number>;
  /** The tenant's agents seen within retention (optionally of one task), most recently seen first. */
  agents(tenantId: string, query?: { taskId?: string; since?: number }): Promise<AgentEntry[]>;
  agent(tenantId: string, agentId: string): Promise<AgentEntry | undefined>;
  /** One agent's records, oldest first (steps and the rest, each within its own bound). */
  agentHistory(tenantId: string, agentId: string, query?: HistoryQuery): Promise<HistoryRecord[]>;
  /** The tenant's non-step records, oldest first. */
  tenantHistory(tenantId: string, query?: HistoryQuery): Promise<HistoryRecord[]>;
  /** One record by id, within the tenant. */
  get(tenantId: string, id: string): Promise<HistoryRecord | undefined>;
  /** Tenants with history (the local operator's dashboard lists them all). */
  tenants(): Promise<string[]>;
}

/** Keeps what a query asks for, sorted, newest `limit`. */
export function selectRecords(records: readonly HistoryRecord[], query: HistoryQuery = {}): HistoryRecord[] {
  const kinds = query.kinds ? new Set(query.kinds) : undefined;
  const selected = records.filter((r) => {
    if (kinds && !kinds.has(r.kind)) return false;
    if (query.taskId !== undefined && r.taskId !== query.taskId) return false;
    const t = Date.parse(r.ts);
    if (query.since !== undefined && t < query.since) return false;
    if (query.until !== undefined && t > query.until) return false;
    return true;
  });
  return query.limit !== undefined && selected.length > query.limit ? selected.slice(selected.length - query.limit) : selected;
}
