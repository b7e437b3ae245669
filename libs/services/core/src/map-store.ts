/**
 * Where services find the cognitive map of a task. The compacted maps topic is the source of truth; the
 * store lets a service that starts late (or a step that arrives before its map) find it without replaying
 * the topic. In-memory in embedded mode, Redis in distributed mode (`@wayfinder/redis`).
 */
import { compositeKey, type CognitiveMap } from '@wayfinder/contracts';

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
    const current = this.maps.get(key);
    if (current && current.version > map.version) return false;
    this.maps.set(key, map);
    return true;
  }
}
