/**
 * @wayfinder/memory: working-memory and long-term memory models, write rules, context assembly and
 * pruning, and the store ports with in-memory adapters (DESIGN §5.5). Contract suites for adapters are in
 * `./testing` (not exported here, so production code never loads jest globals).
 */
export * from './charter';
export * from './agent-trail';
export * from './agent-trail-codec';
export * from './working-memory.port';
export { InMemoryWorkingMemory } from './in-memory-working-memory';
export type { InMemoryWorkingMemoryOptions } from './in-memory-working-memory';
export * from './vector-store.port';
export { InMemoryVectorStore } from './in-memory-vector-store';
export * from './write-rules';
export * from './token-estimate';
export * from './context-assembly';
export { LongTermMemory } from './long-term-memory';
export type { RecallInput, RememberInput } from './long-term-memory';
