/**
 * Test-only entry of @wayfinder/memory: the port contract suites that every adapter must pass. Kept out of
 * index.ts so production code never imports jest globals. Import by path until a `@wayfinder/memory/testing`
 * alias exists: `libs/domain/memory/src/testing`.
 */
export { workingMemoryContract } from './working-memory.contract';
export type { MakeWorkingMemory, WorkingMemoryHarness } from './working-memory.contract';
export { vectorStoreContract } from './vector-store.contract';
export type { MakeVectorStore, VectorStoreHarness } from './vector-store.contract';
