import { historyStoreContract } from './history-store.contract';
import { InMemoryHistoryStore } from './in-memory-history-store';

describe('InMemoryHistoryStore', () => {
  historyStoreContract((limits, startMs) => {
    let now = startMs;
    return { store: new InMemoryHistoryStore({ ...limits, now: () => now }), advance: (ms) => (now += ms) };
  });
});
