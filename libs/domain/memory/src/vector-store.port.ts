/**
 * The VectorStore port for long-term memory (DESIGN §5.5): Qdrant in production (libs/platform), an
 * in-memory index embedded. Both pass `vectorStoreContract` from `@wayfinder/memory/testing`.
 *
 * Tenant isolation is the port's first rule: every point carries its tenantId, every query must name one,
 * and a point id is unique only within its tenant (two tenants may use the same id without touching each
 * other). No query, upsert or delete of one tenant can read or change another tenant's points.
 */

export const MEMORY_KINDS = ['conclusion', 'preference', 'correction', 'reference'] as const;
/** What long-term memory keeps: conclusions, preferences, user corrections, key data references. */
export type MemoryKind = (typeof MEMORY_KINDS)[number];

export interface MemoryPayload {
  kind: MemoryKind;
  text: string;
  taskId?: string;
  agentId?: string;
  milestoneId?: string;
  /** ISO-8601. */
  createdAt?: string;
}

export type Vector = Float32Array | readonly number[];

export interface MemoryPoint {
  id: string;
  tenantId: string;
  vector: Vector;
  payload: MemoryPayload;
}

export interface MemoryFilter {
  kind?: MemoryKind | readonly MemoryKind[];
  milestoneId?: string;
  taskId?: string;
}

export interface VectorQuery {
  /** Mandatory: a query without a tenant is rejected, never answered across tenants. */
  tenantId: string;
  vector: Vector;
  limit: number;
  filter?: MemoryFilter;
  /** Points scoring below this are left out. */
  minScore?: number;
}

export interface ScoredMemory {
  id: string;
  /** Cosine similarity, higher is closer. */
  score: number;
  payload: MemoryPayload;
}

export interface VectorStore {
  /** Inserts or replaces (same tenant and id) points. */
  upsert(points: readonly MemoryPoint[]): Promise<void>;
  /** Nearest points of the tenant, best first (ties by id), at most `limit`. */
  query(query: VectorQuery): Promise<ScoredMemory[]>;
  /** Removes every point of the tenant and nothing else. */
  deleteTenant(tenantId: string): Promise<void>;
  /**
   * A store on a server: resolves when it answers, rejects when it does not (the caller bounds the time,
   * as a readiness check). The runtime's dependency gate runs it after a failed batch; a store in this
   * process has none.
   */
  ping?(): Promise<unknown>;
}

export function assertTenant(tenantId: unknown): asserts tenantId is string {
  if (typeof tenantId !== 'string' || tenantId.length === 0) throw new Error('vector store: tenantId is required');
}

export function matchesFilter(payload: MemoryPayload, filter: MemoryFilter | undefined): boolean {
  if (!filter) return true;
  if (filter.kind !== undefined) {
    const kinds: readonly MemoryKind[] = typeof filter.kind === 'string' ? [filter.kind] : filter.kind;
    if (!kinds.includes(payload.kind)) return false;
  }
  if (filter.milestoneId !== undefined && payload.milestoneId !== filter.milestoneId) return false;
  if (filter.taskId !== undefined && payload.taskId !== filter.taskId) return false;
  return true;
}
