/**
 * Where services find the cognitive map of a task. The compacted maps topic is the source of truth; the
 * store lets a service that starts late (or a step that arrives before its map) find it without replaying
 * the topic. In-memory in embedded mode, Redis in distributed mode (`RedisMapStore` of @wayfinder/redis).
 * Every adapter passes `mapStoreContract` (`@wayfinder/cognitive-map/testing`).
 *
 * Versions (one rule for every adapter, pinned by the contract): a put is refused only when a strictly
 * newer version is stored; the same version is written again (a redelivery) and answers true. Caches in
 * front of a store (MapCache of @wayfinder/service-core) ask the other question, `isNewerMap`: whether a
 * map is news, so a redelivered map does not re-run what its first delivery did.
 */
import { compositeKey, type CognitiveMap } from '@wayfinder/contracts';

type Versioned = Pick<CognitiveMap, 'version'>;

/** Whether a store keeps `next` over what it holds: unless what it holds is strictly newer. */
export function mapReplaces(current: Versioned | undefined, next: Versioned): boolean {
  return !current || current.version <= next.version;
}

/** Whether `next` is news next to what is known: strictly newer (a redelivery is not). */
export function isNewerMap(current: Versioned | undefined, next: Versioned): boolean {
  return !current || current.version < next.version;
}

export interface MapStore {
  get(tenantId: string, taskId: string): Promise<CognitiveMap | undefined>;
  /** Stores the map unless a newer version is already stored; resolves to whether it was stored. */
  put(map: CognitiveMap): Promise<boolean>;
}

export class InMemoryMapStore implements MapStore {
  private readonly maps = new Map<string, CognitiveMap>();

  async get(tenantId: string, taskId: string): Promise<CognitiveMap | undefined> {
    return this.maps.get(compositeKey(tenantId, taskId));
  }

  async put(map: CognitiveMap): Promise<boolean> {
    const key = compositeKey(map.tenantId, map.taskId);
    if (!mapReplaces(this.maps.get(key), map)) return false;
    this.maps.set(key, map);
    return true;
  }
}
