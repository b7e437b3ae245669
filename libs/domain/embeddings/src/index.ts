export * from './embedder';
export * from './hashing-embedder';
export * from './vector-source';
export * from './embedding-cache';
