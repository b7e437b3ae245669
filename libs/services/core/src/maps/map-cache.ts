/**
 * A service's view of the cognitive maps: the newest version seen on the maps topic, else the store.
 * A task without a map is remembered as missing for a short while, so a fleet running without TaskSpecs
 * does not cost one store round trip per step.
 */
import { systemClock } from '@wayfinder/clock';
import { isNewerMap, type MapStore } from '@wayfinder/cognitive-map';
import { compositeKey, type CognitiveMap } from '@wayfinder/contracts';

export const MISSING_MAP_TTL_MS = 2_000;

export class MapCache {
  private readonly maps = new Map<string, CognitiveMap>();
  private readonly missingUntil = new Map<string, number>();

  constructor(
    private readonly store: MapStore,
    private readonly now: () => number = systemClock.now,
  ) {}

  /** Records a map from the topic; resolves to whether it was newer than the one known. */
  offer(map: CognitiveMap): boolean {
    const key = keyOf(map.tenantId, map.taskId);
    if (!isNewerMap(this.maps.get(key), map)) return false;
    this.maps.set(key, map);
    this.missingUntil.delete(key);
    return true;
  }

  /** The map if it is already in memory (no I/O). */
  peek(tenantId: string, taskId: string): CognitiveMap | undefined {
    return this.maps.get(keyOf(tenantId, taskId));
  }

  async get(tenantId: string, taskId: string): Promise<CognitiveMap | undefined> {
    const key = keyOf(tenantId, taskId);
    const cached = this.maps.get(key);
    if (cached) return cached;
    const until = this.missingUntil.get(key);
    if (until !== undefined && until > this.now()) return undefined;
    const stored = await this.store.get(tenantId, taskId);
    if (stored) this.offer(stored);
    else {
      if (this.missingUntil.size > 100_000) this.missingUntil.clear();
      this.missingUntil.set(key, this.now() + MISSING_MAP_TTL_MS);
    }
    return stored;
  }
}

function keyOf(tenantId: string, taskId: string): string {
  return compositeKey(tenantId, taskId);
}
