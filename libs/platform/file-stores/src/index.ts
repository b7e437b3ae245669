/** Adapters of domain ports on local files (embedded mode). */
export * from './file-key-store';
