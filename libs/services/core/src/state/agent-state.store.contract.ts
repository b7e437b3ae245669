/**
 * The contract every AgentStateStore adapter passes (STYLE "ports with contract suites"): versions start
 * at 0 and grow by one per write, bytes round-trip exactly, a versioned write lands only on the version it
 * expects (compare-and-set), and agents never meet — not across tenants,
 * and not when ids contain the separators (':', '%', '{', NUL) that would make naive composite keys collide.
 */
import { type AgentRef, type AgentStateStore, VERSION_CONFLICT } from './agent-state.store';

export function agentStateStoreContract(name: string, makeStore: () => AgentStateStore | Promise<AgentStateStore>, unique: string): void {
  describe(`${name} (AgentStateStore contract)`, () => {
    let store: AgentStateStore;
    beforeAll(async () => {
      store = await makeStore();
    });

    it('round-trips bytes and bumps the version on every write', async () => {
      const a = { tenantId: `t-${unique}`, agentId: 'a1' };
      const b = { tenantId: `t-${unique}`, agentId: 'a2' };
      expect(await store.versions([a, b])).toEqual([0, 0]);
      const bytes = new Uint8Array([0, 255, 1, 128, 7]);
      expect(await store.save([{ ...a, state: bytes }])).toEqual([1]);
      expect(await store.save([{ ...a, state: bytes.subarray(1, 3) }, { ...b, state: bytes }])).toEqual([2, 1]);
      expect(await store.load([a, b])).toEqual([
        { version: 2, state: new Uint8Array([255, 1]) },
        { version: 1, state: bytes },
      ]);
      expect(await store.versions([a, b])).toEqual([2, 1]);
    });

    it('never lets two tenants with colliding composite ids see each other’s state', async () => {
      // Each pair would meet under a `tenant:agent` key, or under percent-encoding done twice.
      const pairs: Array<[AgentRef, AgentRef]> = [
        [{ tenantId: `a:${unique}`, agentId: 'b:c' }, { tenantId: `a:${unique}:b`, agentId: 'c' }],
        [{ tenantId: `p%3a${unique}`, agentId: 'x' }, { tenantId: `p:${unique}`, agentId: 'x' }],
        [{ tenantId: `n\u0000${unique}`, agentId: 'y' }, { tenantId: `n`, agentId: `\u0000${unique}\u0000y` }],
        [{ tenantId: `{b}${unique}`, agentId: 'z' }, { tenantId: `b${unique}`, agentId: 'z' }],
      ];
      for (const [first, second] of pairs) {
        await store.save([{ ...first, state: new Uint8Array([1, 2, 3]) }]);
        expect(await store.versions([second])).toEqual([0]);
        expect(await store.load([second])).toEqual([undefined]);
        await store.save([{ ...second, state: new Uint8Array([9]) }]);
        expect((await store.load([first]))[0]).toEqual({ version: 1, state: new Uint8Array([1, 2, 3]) });
      }
    });

    it('writes a versioned state only over the version it read: a stale writer gets a conflict and changes nothing', async () => {
      const a = { tenantId: `cas-${unique}`, agentId: 'a:1' };
      const b = { tenantId: `cas-${unique}`, agentId: 'a:2' };
      // Nothing stored: version 0 is the one to expect.
      expect(await store.save([{ ...a, state: new Uint8Array([1]), expectedVersion: 1 }])).toEqual([VERSION_CONFLICT]);
      expect(await store.versions([a])).toEqual([0]);
      expect(await store.save([{ ...a, state: new Uint8Array([1]), expectedVersion: 0 }])).toEqual([1]);
      // The new owner writes version 2; the old owner, still at 1, comes back with an older state.
      expect(await store.save([{ ...a, state: new Uint8Array([2]), expectedVersion: 1 }])).toEqual([2]);
      expect(await store.save([{ ...a, state: new Uint8Array([9]), expectedVersion: 1 }, { ...b, state: new Uint8Array([7]), expectedVersion: 0 }])).toEqual([VERSION_CONFLICT, 1]);
      expect(await store.load([a, b])).toEqual([
        { version: 2, state: new Uint8Array([2]) },
        { version: 1, state: new Uint8Array([7]) },
      ]);
      // Unversioned writes still land whatever is stored.
      expect(await store.save([{ ...a, state: new Uint8Array([3]) }])).toEqual([3]);
    });

    it('answers a large write of interleaved tenants in the order asked, conflicts included', async () => {
      const refs = Array.from({ length: 600 }, (_, i) => ({ tenantId: `many-${i % 3}-${unique}`, agentId: `a${i}` }));
      expect(await store.save(refs.map((r, i) => ({ ...r, state: new Uint8Array([i % 256]), expectedVersion: 0 })))).toEqual(refs.map(() => 1));
      // Every fifth stale (expects 0 again), the rest on version 1.
      const answers = await store.save(refs.map((r, i) => ({ ...r, state: new Uint8Array([(i + 1) % 256]), expectedVersion: i % 5 === 0 ? 0 : 1 })));
      expect(answers).toEqual(refs.map((_, i) => (i % 5 === 0 ? VERSION_CONFLICT : 2)));
      const loaded = await store.load(refs);
      loaded.forEach((l, i) => expect(l).toEqual(i % 5 === 0 ? { version: 1, state: new Uint8Array([i % 256]) } : { version: 2, state: new Uint8Array([(i + 1) % 256]) }));
    });

    it('answers empty requests without a round trip failing', async () => {
      expect(await store.versions([])).toEqual([]);
      expect(await store.load([])).toEqual([]);
      expect(await store.save([])).toEqual([]);
    });
  });
}
