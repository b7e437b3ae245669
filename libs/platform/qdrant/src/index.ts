/** @wayfinder/qdrant: the VectorStore port of long-term memory on Qdrant (DESIGN §5.5). */
export * from './point-id';
export * from './qdrant-filter';
export * from './qdrant-vector-store';
