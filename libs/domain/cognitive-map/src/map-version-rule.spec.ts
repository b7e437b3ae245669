// The one version rule of map stores (mapReplaces: a redelivery is written again) and of the caches in
// front of them (isNewerMap: a redelivery is no news).
import { isNewerMap, mapReplaces } from './map-store.port';

describe('map versions', () => {
  it('a store keeps a map unless a strictly newer one is stored', () => {
    expect(mapReplaces(undefined, { version: 1 })).toBe(true);
    expect(mapReplaces({ version: 2 }, { version: 3 })).toBe(true);
    expect(mapReplaces({ version: 2 }, { version: 2 })).toBe(true);
    expect(mapReplaces({ version: 2 }, { version: 1 })).toBe(false);
  });

  it('a cache takes only a strictly newer map as news', () => {
    expect(isNewerMap(undefined, { version: 1 })).toBe(true);
    expect(isNewerMap({ version: 2 }, { version: 3 })).toBe(true);
    expect(isNewerMap({ version: 2 }, { version: 2 })).toBe(false);
    expect(isNewerMap({ version: 2 }, { version: 1 })).toBe(false);
  });
});
