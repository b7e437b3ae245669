/** The memory service's view of cognitive maps (newest from the maps topic, else the map store), one per process. */
import { MapCache, type MapStore } from '@wayfinder/service-core';

export const MEMORY_MAPS = Symbol('wayfinder.memory.maps');

export function memoryMaps(store: MapStore): MapCache {
  return new MapCache(store);
}
