/**
 * The contract every VectorStore adapter passes (in-memory here, Qdrant in libs/platform). Call it from a
 * spec: `vectorStoreContract(async ({ dimension }) => ({ store }))`. Tenants are unique per test, so the
 * suite can run against a shared server; each test deletes its tenants at the end.
 */
import type { MemoryPoint, MemoryPayload, VectorStore } from './vector-store.port';

export interface VectorStoreHarness {
  store: VectorStore;
  dispose?(): Promise<void>;
}

export type MakeVectorStore = (options: { dimension: number }) => VectorStoreHarness | Promise<VectorStoreHarness>;

const DIMENSION = 4;
let unique = 0;

function tenants() {
  unique += 1;
  const run = `${Date.now().toString(36)}-${unique}`;
  return { a: `tenant-a-${run}`, b: `tenant-b-${run}` };
}

function point(tenantId: string, id: string, vector: number[], payload: Partial<MemoryPayload> = {}): MemoryPoint {
  return { id, tenantId, vector, payload: { kind: 'conclusion', text: `memory ${id}`, ...payload } };
}

export function vectorStoreContract(make: MakeVectorStore): void {
  describe('VectorStore contract', () => {
    let h: VectorStoreHarness;
    let used: string[] = [];
    const fresh = () => {
      const t = tenants();
      used.push(t.a, t.b);
      return t;
    };
    beforeEach(async () => {
      h = await make({ dimension: DIMENSION });
      used = [];
    });
    afterEach(async () => {
      for (const t of used) await h.store.deleteTenant(t);
      await h.dispose?.();
    });

    it('returns the nearest points first, at most limit, with cosine scores', async () => {
      const { a } = fresh();
      await h.store.upsert([
        point(a, 'x', [1, 0, 0, 0]),
        point(a, 'xy', [1, 1, 0, 0]),
        point(a, 'y', [0, 1, 0, 0]),
        point(a, 'z', [0, 0, 1, 0]),
      ]);
      const hits = await h.store.query({ tenantId: a, vector: [1, 0, 0, 0], limit: 2 });
      expect(hits.map((p) => p.id)).toEqual(['x', 'xy']);
      expect(hits[0].score).toBeCloseTo(1, 5);
      expect(hits[1].score).toBeCloseTo(Math.SQRT1_2, 5);
      expect(hits[0].payload).toEqual({ kind: 'conclusion', text: 'memory x' });
    });

    it('replaces a point upserted again under the same tenant and id', async () => {
      const { a } = fresh();
      await h.store.upsert([point(a, 'p', [1, 0, 0, 0], { text: 'old' })]);
      await h.store.upsert([point(a, 'p', [0, 1, 0, 0], { text: 'new' })]);
      const hits = await h.store.query({ tenantId: a, vector: [0, 1, 0, 0], limit: 10 });
      expect(hits).toHaveLength(1);
      expect(hits[0].payload.text).toBe('new');
    });

    it('isolates tenants: identical vectors and ids never cross, deletes stay inside a tenant', async () => {
      const { a, b } = fresh();
      await h.store.upsert([point(a, 'same-id', [1, 0, 0, 0], { text: 'secret of A' })]);
      await h.store.upsert([point(b, 'same-id', [1, 0, 0, 0], { text: 'note of B' })]);
      const seenByB = await h.store.query({ tenantId: b, vector: [1, 0, 0, 0], limit: 10 });
      expect(seenByB.map((p) => p.payload.text)).toEqual(['note of B']);
      const seenByA = await h.store.query({ tenantId: a, vector: [1, 0, 0, 0], limit: 10 });
      expect(seenByA.map((p) => p.payload.text)).toEqual(['secret of A']);

      await h.store.deleteTenant(b);
      expect(await h.store.query({ tenantId: b, vector: [1, 0, 0, 0], limit: 10 })).toEqual([]);
      expect(await h.store.query({ tenantId: a, vector: [1, 0, 0, 0], limit: 10 })).toHaveLength(1);
    });

    it('rejects a query, upsert or delete without a tenant', async () => {
      const { a } = fresh();
      await h.store.upsert([point(a, 'p', [1, 0, 0, 0])]);
      await expect(h.store.query({ tenantId: '', vector: [1, 0, 0, 0], limit: 10 })).rejects.toThrow(/tenant/i);
      const untyped = { vector: [1, 0, 0, 0], limit: 10 } as unknown as Parameters<VectorStore['query']>[0];
      await expect(h.store.query(untyped)).rejects.toThrow(/tenant/i);
      await expect(h.store.upsert([point('', 'q', [1, 0, 0, 0])])).rejects.toThrow(/tenant/i);
      await expect(h.store.deleteTenant('')).rejects.toThrow(/tenant/i);
      expect(await h.store.query({ tenantId: a, vector: [1, 0, 0, 0], limit: 10 })).toHaveLength(1);
    });

    it('filters by kind and by milestone', async () => {
      const { a } = fresh();
      await h.store.upsert([
        point(a, 'c-m1', [1, 0, 0, 0], { kind: 'conclusion', milestoneId: 'm1' }),
        point(a, 'c-m2', [1, 0.1, 0, 0], { kind: 'conclusion', milestoneId: 'm2' }),
        point(a, 'pref', [1, 0.2, 0, 0], { kind: 'preference' }),
        point(a, 'ref-m2', [1, 0.3, 0, 0], { kind: 'reference', milestoneId: 'm2' }),
      ]);
      const q = { tenantId: a, vector: [1, 0, 0, 0], limit: 10 };
      expect((await h.store.query({ ...q, filter: { kind: 'preference' } })).map((p) => p.id)).toEqual(['pref']);
      expect((await h.store.query({ ...q, filter: { milestoneId: 'm2' } })).map((p) => p.id)).toEqual(['c-m2', 'ref-m2']);
      expect((await h.store.query({ ...q, filter: { kind: ['conclusion', 'reference'], milestoneId: 'm2' } })).map((p) => p.id)).toEqual([
        'c-m2',
        'ref-m2',
      ]);
    });

    it('leaves out points below minScore', async () => {
      const { a } = fresh();
      await h.store.upsert([point(a, 'near', [1, 0.1, 0, 0]), point(a, 'far', [0, 0, 0, 1])]);
      const hits = await h.store.query({ tenantId: a, vector: [1, 0, 0, 0], limit: 10, minScore: 0.5 });
      expect(hits.map((p) => p.id)).toEqual(['near']);
    });

    it('rejects vectors of another dimension', async () => {
      const { a } = fresh();
      await expect(h.store.upsert([point(a, 'p', [1, 0, 0])])).rejects.toThrow(/dimension/i);
      await expect(h.store.query({ tenantId: a, vector: [1, 0], limit: 1 })).rejects.toThrow(/dimension/i);
    });
  });
}
