/** Test-only entry of @wayfinder/history: the store contract suite and record fixtures. */
export { historyStoreContract } from './history-store.contract';
export type { HistoryStoreHarness, MakeHistoryStore } from './history-store.contract';
export * from './history-fixtures.testing';
