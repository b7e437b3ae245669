export * from './embedder';
