export * from './embedder';
export * from './hashing-embedder';
