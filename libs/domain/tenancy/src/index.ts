/** Tenancy at the door (DESIGN §12): API keys, the key store and correction log ports, rate limits. */
export * from './api-keys';
export * from './key-store';
export * from './authenticator';
export * from './rate-limit';
export * from './correction-log';
export * from './tenant-shares';
export * from './step-seqs';
