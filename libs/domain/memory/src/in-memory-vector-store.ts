/**
 * VectorStore in process memory: an exact (brute-force) cosine index, partitioned by tenant so a query
 * cannot even iterate another tenant's points. The embedded default and the reference for Qdrant.
 */
import { assertTenant, matchesFilter, type MemoryPayload, type MemoryPoint, type ScoredMemory, type Vector, type VectorQuery, type VectorStore } from './vector-store.port';

interface StoredPoint {
  id: string;
  vector: Float32Array;
  norm: number;
  payload: MemoryPayload;
}

export class InMemoryVectorStore implements VectorStore {
  private readonly tenants = new Map<string, Map<string, StoredPoint>>();

  /** `dimension`: vectors of any other length are rejected (a mixed-embedder index is meaningless). */
  constructor(private readonly options: { dimension: number }) {}

  async upsert(points: readonly MemoryPoint[]): Promise<void> {
    // Validate the whole batch first: a rejected batch changes nothing.
    for (const p of points) {
      assertTenant(p.tenantId);
      if (typeof p.id !== 'string' || p.id.length === 0) throw new Error('vector store: point id is required');
      this.checkDimension(p.vector);
    }
    for (const p of points) {
      let points = this.tenants.get(p.tenantId);
      if (!points) {
        points = new Map();
        this.tenants.set(p.tenantId, points);
      }
      const vector = Float32Array.from(p.vector);
      points.set(p.id, { id: p.id, vector, norm: norm(vector), payload: { ...p.payload } });
    }
  }

  async query(query: VectorQuery): Promise<ScoredMemory[]> {
    assertTenant(query.tenantId);
    this.checkDimension(query.vector);
    const points = this.tenants.get(query.tenantId);
    if (!points || query.limit <= 0) return [];
    const q = Float32Array.from(query.vector);
    const qNorm = norm(q);
    const scored: ScoredMemory[] = [];
    for (const p of points.values()) {
      if (!matchesFilter(p.payload, query.filter)) continue;
      const score = qNorm === 0 || p.norm === 0 ? 0 : dot(q, p.vector) / (qNorm * p.norm);
      if (query.minScore !== undefined && score < query.minScore) continue;
      scored.push({ id: p.id, score, payload: { ...p.payload } });
    }
    scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return scored.slice(0, query.limit);
  }

  async deleteTenant(tenantId: string): Promise<void> {
    assertTenant(tenantId);
    this.tenants.delete(tenantId);
  }

  private checkDimension(vector: Vector): void {
    if (vector.length !== this.options.dimension) {
      throw new Error(`vector store: expected a vector of dimension ${this.options.dimension}, got ${vector.length}`);
    }
  }
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function norm(v: Float32Array): number {
  return Math.sqrt(dot(v, v));
}
