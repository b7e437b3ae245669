import type { CognitiveMap } from '@wayfinder/contracts';
import { InMemoryMapStore } from '@wayfinder/cognitive-map';
import { MapCache, MISSING_MAP_TTL_MS } from './map-cache';

function map(tenantId: string, taskId: string, version: number): CognitiveMap {
  return {
    schema: 'wayfinder.map.v1', eventId: `m-${version}`, tenantId, ts: '2026-01-01T00:00:00Z', taskId, version, goal: 'g', targetState: 'done',
    milestones: [{ id: 'm1', description: 'do it', dependsOn: [], validator: { type: 'marker' } }], anchors: [], constraints: [],
  };
}

describe('MapCache', () => {
  it('keeps the newest version and ignores older ones', () => {
    const cache = new MapCache(new InMemoryMapStore());
    expect(cache.offer(map('t1', 'x', 2))).toBe(true);
    expect(cache.offer(map('t1', 'x', 1))).toBe(false);
    expect(cache.peek('t1', 'x')?.version).toBe(2);
  });

  it('reads through to the store and remembers a missing map for a while', async () => {
    const store = new InMemoryMapStore();
    const get = jest.spyOn(store, 'get');
    let now = 0;
    const cache = new MapCache(store, () => now);
    expect(await cache.get('t1', 'x')).toBeUndefined();
    expect(await cache.get('t1', 'x')).toBeUndefined();
    expect(get).toHaveBeenCalledTimes(1);
    await store.put(map('t1', 'x', 1));
    now = MISSING_MAP_TTL_MS + 1;
    expect((await cache.get('t1', 'x'))?.version).toBe(1);
  });

  it('never answers one tenant with another tenant’s map of the same task id', async () => {
    const cache = new MapCache(new InMemoryMapStore());
    cache.offer(map('t1', 'x', 1));
    expect(await cache.get('t2', 'x')).toBeUndefined();
  });
});
