/**
 * VectorStore on Qdrant (DESIGN §5.5): one collection per deployment, cosine distance, a keyword payload
 * index on `tenantId` marked as the tenant field (Qdrant co-locates a tenant's points) plus indexes on the
 * fields memory queries filter by. Every point carries its tenant in the payload and every query or delete
 * sends the tenant condition built by `tenantFilter`; results are checked against the tenant once more
 * before they leave, so a bad filter would return nothing rather than another tenant's memory.
 */
import { QdrantClient } from '@qdrant/js-client-rest';
import {
  assertTenant,
  MEMORY_KINDS,
  type MemoryKind,
  type MemoryPayload,
  type MemoryPoint,
  type ScoredMemory,
  type Vector,
  type VectorQuery,
  type VectorStore,
} from '@wayfinder/memory';
import { pointUuid } from './point-id';
import { TENANT_FIELD, tenantFilter, type TenantFilter } from './qdrant-filter';

type QdrantPayload = Record<string, unknown>;

/** The part of QdrantClient this adapter uses (so unit tests can pass a recording fake). */
export interface QdrantApi {
  collectionExists(collection: string): Promise<{ exists: boolean }>;
  createCollection(collection: string, args: { vectors: { size: number; distance: 'Cosine' } }): Promise<unknown>;
  createPayloadIndex(collection: string, args: { wait?: boolean; field_name: string; field_schema: { type: 'keyword'; is_tenant?: boolean } }): Promise<unknown>;
  upsert(collection: string, args: { wait?: boolean; points: Array<{ id: string; vector: number[]; payload: QdrantPayload }> }): Promise<unknown>;
  query(
    collection: string,
    args: { query: number[]; filter: TenantFilter; limit: number; with_payload: boolean; score_threshold?: number },
  ): Promise<{ points: Array<{ id: string | number; score: number; payload?: QdrantPayload | null }> }>;
  delete(collection: string, args: { wait?: boolean; filter: TenantFilter }): Promise<unknown>;
}

export interface QdrantVectorStoreOptions {
  /** Vectors of any other length are rejected before any request. */
  dimension: number;
  /** One collection per deployment (default `wayfinder_memories`). */
  collection?: string;
  /** Either a client (tests, custom settings) or a URL to build one. */
  client?: QdrantApi;
  url?: string;
  apiKey?: string;
}

const FILTERED_FIELDS = ['kind', 'taskId', 'milestoneId'] as const;

export class QdrantVectorStore implements VectorStore {
  readonly collection: string;
  private readonly client: QdrantApi;
  private ready?: Promise<void>;

  constructor(private readonly options: QdrantVectorStoreOptions) {
    if (!Number.isInteger(options.dimension) || options.dimension <= 0) throw new Error('QdrantVectorStore: dimension must be a positive integer');
    this.collection = options.collection ?? 'wayfinder_memories';
    if (options.client) this.client = options.client;
    else if (options.url) this.client = new QdrantClient({ url: options.url, apiKey: options.apiKey, checkCompatibility: false });
    else throw new Error('QdrantVectorStore: a client or a url is required');
  }

  /** Creates the collection and its payload indexes when missing; safe to call from several processes. */
  ensureCollection(): Promise<void> {
    this.ready ??= this.createIfMissing().catch((error: unknown) => {
      this.ready = undefined; // let the next call try again once Qdrant answers
      throw error;
    });
    return this.ready;
  }

  async upsert(points: readonly MemoryPoint[]): Promise<void> {
    // Validate the whole batch first: a rejected batch sends nothing.
    for (const p of points) {
      assertTenant(p.tenantId);
      if (typeof p.id !== 'string' || p.id.length === 0) throw new Error('vector store: point id is required');
      this.checkDimension(p.vector);
    }
    if (points.length === 0) return;
    await this.ensureCollection();
    await this.client.upsert(this.collection, {
      wait: true,
      points: points.map((p) => ({
        id: pointUuid(p.tenantId, p.id),
        vector: Array.from(p.vector),
        payload: { ...withoutUndefined(p.payload), [TENANT_FIELD]: p.tenantId, memoryId: p.id },
      })),
    });
  }

  async query(query: VectorQuery): Promise<ScoredMemory[]> {
    assertTenant(query.tenantId);
    this.checkDimension(query.vector);
    const filter = tenantFilter(query.tenantId, query.filter);
    if (query.limit <= 0) return [];
    await this.ensureCollection();
    const result = await this.client.query(this.collection, {
      query: Array.from(query.vector),
      filter,
      limit: query.limit,
      with_payload: true,
      ...(query.minScore !== undefined && { score_threshold: query.minScore }),
    });
    const hits: ScoredMemory[] = [];
    for (const point of result.points) {
      const payload = point.payload ?? {};
      if (payload[TENANT_FIELD] !== query.tenantId) continue;
      const memory = toMemory(payload);
      if (!memory) continue;
      if (query.minScore !== undefined && point.score < query.minScore) continue;
      hits.push({ id: memory.id, score: point.score, payload: memory.payload });
    }
    // The port orders ties by id; Qdrant leaves them unspecified.
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return hits.slice(0, query.limit);
  }

  /**
   * Resolves when Qdrant answers (a collection lookup, whether or not the collection exists yet), rejects
   * when it does not. The runtime's dependency gate runs it, bounded in time, after a failed batch, so that
   * an outage pauses consumption instead of dead-lettering good steps (DESIGN §14).
   */
  async ping(): Promise<void> {
    await this.client.collectionExists(this.collection);
  }

  async deleteTenant(tenantId: string): Promise<void> {
    const filter = tenantFilter(tenantId);
    await this.ensureCollection();
    await this.client.delete(this.collection, { wait: true, filter });
  }

  private async createIfMissing(): Promise<void> {
    if (!(await this.client.collectionExists(this.collection)).exists) {
      try {
        await this.client.createCollection(this.collection, { vectors: { size: this.options.dimension, distance: 'Cosine' } });
      } catch (error) {
        // Another process created it first: fine. Anything else is a real failure.
        if (!(await this.client.collectionExists(this.collection)).exists) throw error;
      }
    }
    await this.client.createPayloadIndex(this.collection, { wait: true, field_name: TENANT_FIELD, field_schema: { type: 'keyword', is_tenant: true } });
    for (const field of FILTERED_FIELDS) {
      await this.client.createPayloadIndex(this.collection, { wait: true, field_name: field, field_schema: { type: 'keyword' } });
    }
  }

  private checkDimension(vector: Vector): void {
    if (vector.length !== this.options.dimension) {
      throw new Error(`vector store: expected a vector of dimension ${this.options.dimension}, got ${vector.length}`);
    }
  }
}

function withoutUndefined(payload: MemoryPayload): QdrantPayload {
  return Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== undefined));
}

/** The port's view of a stored payload: the tenant and the id bookkeeping stay inside the adapter. */
function toMemory(payload: QdrantPayload): { id: string; payload: MemoryPayload } | undefined {
  const { memoryId, kind, text } = payload;
  if (typeof memoryId !== 'string' || typeof text !== 'string' || !MEMORY_KINDS.includes(kind as MemoryKind)) return undefined;
  const out: MemoryPayload = { kind: kind as MemoryKind, text };
  for (const field of ['taskId', 'agentId', 'milestoneId', 'createdAt'] as const) {
    const value = payload[field];
    if (typeof value === 'string') out[field] = value;
  }
  return { id: memoryId, payload: out };
}
