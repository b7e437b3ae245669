/**
 * The contract every MapStore adapter passes (STYLE "ports with contract suites"): an older version never
 * replaces a newer one (the same version does: a redelivery), and tasks never meet — not across tenants,
 * and not when ids contain the separators (':', '%', '{', NUL) that would make naive composite keys collide.
 */
import type { CognitiveMap } from '@wayfinder/contracts';
import type { MapStore } from './map-store.port';

function mapOf(tenantId: string, taskId: string, version: number, goal = `goal of ${taskId} v${version}`): CognitiveMap {
  return {
    schema: 'wayfinder.map.v1', eventId: `map-${taskId}-${version}`, tenantId, ts: '2026-01-01T00:00:00.000Z', taskId, version, goal, targetState: goal,
    milestones: [{ id: 'm1', description: 'do it', dependsOn: [], validator: { type: 'marker' } }],
    anchors: [], constraints: [],
  };
}

export function mapStoreContract(name: string, makeStore: () => MapStore | Promise<MapStore>, unique: string): void {
  describe(`${name} (MapStore contract)`, () => {
    let store: MapStore;
    beforeAll(async () => {
      store = await makeStore();
    });

    it('keeps the newest version: an older one is refused, the same one is stored again', async () => {
      const tenant = `t-${unique}`;
      expect(await store.get(tenant, 'job')).toBeUndefined();
      expect(await store.put(mapOf(tenant, 'job', 2))).toBe(true);
      expect(await store.put(mapOf(tenant, 'job', 1))).toBe(false);
      expect((await store.get(tenant, 'job'))?.version).toBe(2);
      expect(await store.put(mapOf(tenant, 'job', 2, 'redelivered'))).toBe(true);
      expect(await store.put(mapOf(tenant, 'job', 3))).toBe(true);
      expect((await store.get(tenant, 'job'))?.version).toBe(3);
    });

    it('never lets two tenants with colliding composite ids see each other’s maps', async () => {
      const pairs: Array<[[string, string], [string, string]]> = [
        [[`a:${unique}`, 'b:c'], [`a:${unique}:b`, 'c']],
        [[`p%3a${unique}`, 'x'], [`p:${unique}`, 'x']],
        [[`n\u0000${unique}`, 'y'], ['n', `\u0000${unique}\u0000y`]],
        [[`{b}${unique}`, 'z'], [`b${unique}`, 'z']],
      ];
      for (const [[t1, k1], [t2, k2]] of pairs) {
        await store.put(mapOf(t1, k1, 1, 'first tenant'));
        expect(await store.get(t2, k2)).toBeUndefined();
        await store.put(mapOf(t2, k2, 5, 'second tenant'));
        expect((await store.get(t1, k1))?.goal).toBe('first tenant');
        expect((await store.get(t2, k2))?.goal).toBe('second tenant');
      }
    });
  });
}
