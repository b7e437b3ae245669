/**
 * The requests QdrantVectorStore sends, on a recording fake client: every upsert carries the tenant in
 * the payload under a tenant-derived UUID, every query and delete carries the tenant condition first,
 * and what comes back is the port's payload (no tenant, no id bookkeeping).
 */
import { vectorStoreContract } from '@wayfinder/memory/testing';
import { pointUuid } from './point-id';
import { tenantFilter, type TenantFilter } from './qdrant-filter';
import { QdrantVectorStore, type QdrantApi } from './qdrant-vector-store';

type Call = { method: string; collection: string; args?: unknown };
type StoredPoint = { id: string; vector: number[]; payload: Record<string, unknown> };

/** Answers like Qdrant would for the filters this adapter builds (exact cosine, must = AND). */
class FakeQdrant implements QdrantApi {
  readonly calls: Call[] = [];
  private readonly collections = new Map<string, Map<string, StoredPoint>>();

  async collectionExists(collection: string) {
    this.calls.push({ method: 'collectionExists', collection });
    return { exists: this.collections.has(collection) };
  }
  async createCollection(collection: string, args: { vectors: { size: number; distance: 'Cosine' } }) {
    this.calls.push({ method: 'createCollection', collection, args });
    this.collections.set(collection, new Map());
    return true;
  }
  async createPayloadIndex(collection: string, args: unknown) {
    this.calls.push({ method: 'createPayloadIndex', collection, args });
    return { status: 'completed' };
  }
  async upsert(collection: string, args: { points: StoredPoint[] }) {
    this.calls.push({ method: 'upsert', collection, args });
    for (const p of args.points) this.points(collection).set(p.id, p);
    return { status: 'completed' };
  }
  async query(collection: string, args: { query: number[]; filter: TenantFilter; limit: number; score_threshold?: number }) {
    this.calls.push({ method: 'query', collection, args });
    const points = [...this.points(collection).values()]
      .filter((p) => matches(p.payload, args.filter))
      .map((p) => ({ id: p.id, score: cosine(args.query, p.vector), payload: p.payload }))
      .filter((p) => args.score_threshold === undefined || p.score >= args.score_threshold)
      .sort((a, b) => b.score - a.score)
      .slice(0, args.limit);
    return { points };
  }
  async delete(collection: string, args: { filter: TenantFilter }) {
    this.calls.push({ method: 'delete', collection, args });
    for (const [id, p] of this.points(collection)) if (matches(p.payload, args.filter)) this.points(collection).delete(id);
    return { status: 'completed' };
  }
  private points(collection: string): Map<string, StoredPoint> {
    const points = this.collections.get(collection);
    if (!points) throw new Error(`Not found: Collection \`${collection}\` doesn't exist!`);
    return points;
  }
}

function matches(payload: Record<string, unknown>, filter: TenantFilter): boolean {
  return filter.must.every((c) => ('value' in c.match ? payload[c.key] === c.match.value : c.match.any.includes(payload[c.key] as string)));
}

function cosine(a: number[], b: number[]): number {
  const dot = a.reduce((s, x, i) => s + x * b[i], 0);
  const n = Math.sqrt(a.reduce((s, x) => s + x * x, 0)) * Math.sqrt(b.reduce((s, x) => s + x * x, 0));
  return n === 0 ? 0 : dot / n;
}

const tenantCondition = (tenantId: string) => ({ key: 'tenantId', match: { value: tenantId } });

describe('QdrantVectorStore requests', () => {
  it('creates the collection once, with the tenant payload index marked as the tenant field', async () => {
    const client = new FakeQdrant();
    const store = new QdrantVectorStore({ client, dimension: 3, collection: 'mem' });
    await store.query({ tenantId: 't1', vector: [1, 0, 0], limit: 1 });
    await store.query({ tenantId: 't1', vector: [1, 0, 0], limit: 1 });
    expect(client.calls.filter((c) => c.method === 'createCollection')).toEqual([
      { method: 'createCollection', collection: 'mem', args: { vectors: { size: 3, distance: 'Cosine' } } },
    ]);
    expect(client.calls.filter((c) => c.method === 'createPayloadIndex').map((c) => c.args)).toContainEqual({
      wait: true,
      field_name: 'tenantId',
      field_schema: { type: 'keyword', is_tenant: true },
    });
  });

  it('puts the tenant in every upserted payload, under a UUID derived from tenant and id', async () => {
    const client = new FakeQdrant();
    const store = new QdrantVectorStore({ client, dimension: 2 });
    await store.upsert([
      { id: 'same', tenantId: 'a', vector: [1, 0], payload: { kind: 'conclusion', text: 'of A', taskId: 'x' } },
      { id: 'same', tenantId: 'b', vector: [1, 0], payload: { kind: 'preference', text: 'of B' } },
    ]);
    const upsert = client.calls.find((c) => c.method === 'upsert')?.args as { points: StoredPoint[] };
    expect(upsert.points.map((p) => [p.id, p.payload.tenantId, p.payload.memoryId])).toEqual([
      [pointUuid('a', 'same'), 'a', 'same'],
      [pointUuid('b', 'same'), 'b', 'same'],
    ]);
    expect(pointUuid('a', 'same')).not.toBe(pointUuid('b', 'same'));
    expect(pointUuid('a', 'same')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('sends the tenant condition first in every query and delete, with the memory filters after it', async () => {
    const client = new FakeQdrant();
    const store = new QdrantVectorStore({ client, dimension: 2 });
    await store.query({ tenantId: 't1', vector: [0, 1], limit: 5, minScore: 0.3, filter: { kind: ['conclusion', 'reference'], milestoneId: 'm2', taskId: 'task' } });
    await store.query({ tenantId: 't2', vector: [0, 1], limit: 5 });
    await store.deleteTenant('t3');
    const queries = client.calls.filter((c) => c.method === 'query').map((c) => c.args as { filter: TenantFilter; score_threshold?: number });
    expect(queries[0].filter).toEqual({
      must: [tenantCondition('t1'), { key: 'kind', match: { any: ['conclusion', 'reference'] } }, { key: 'milestoneId', match: { value: 'm2' } }, { key: 'taskId', match: { value: 'task' } }],
    });
    expect(queries[0].score_threshold).toBe(0.3);
    expect(queries[1].filter).toEqual({ must: [tenantCondition('t2')] });
    expect(client.calls.find((c) => c.method === 'delete')?.args).toEqual({ wait: true, filter: { must: [tenantCondition('t3')] } });
  });

  it('refuses to build a filter, query or delete without a tenant, before any request', async () => {
    const client = new FakeQdrant();
    const store = new QdrantVectorStore({ client, dimension: 2 });
    expect(() => tenantFilter('')).toThrow(/tenant/);
    await expect(store.query({ tenantId: '', vector: [1, 0], limit: 1 })).rejects.toThrow(/tenant/);
    await expect(store.deleteTenant('')).rejects.toThrow(/tenant/);
    expect(client.calls).toEqual([]);
  });

  it('drops a returned point of another tenant even if the server ignored the filter', async () => {
    const leaky: QdrantApi = {
      collectionExists: async () => ({ exists: true }),
      createCollection: async () => true,
      createPayloadIndex: async () => true,
      upsert: async () => true,
      delete: async () => true,
      query: async () => ({
        points: [
          { id: pointUuid('other', 'x'), score: 0.99, payload: { tenantId: 'other', memoryId: 'x', kind: 'conclusion', text: 'secret' } },
          { id: pointUuid('mine', 'y'), score: 0.5, payload: { tenantId: 'mine', memoryId: 'y', kind: 'conclusion', text: 'mine', taskId: 't' } },
        ],
      }),
    };
    const store = new QdrantVectorStore({ client: leaky, dimension: 2 });
    expect(await store.query({ tenantId: 'mine', vector: [1, 0], limit: 5 })).toEqual([{ id: 'y', score: 0.5, payload: { kind: 'conclusion', text: 'mine', taskId: 't' } }]);
  });

  describe('on a fake Qdrant server', () => {
    vectorStoreContract(({ dimension }) => ({ store: new QdrantVectorStore({ client: new FakeQdrant(), dimension }) }));
  });
});
