export * from './history-record';
export * from './history-store.port';
export * from './in-memory-history-store';
export * from './records-from-events';
export * from './agent-story';
export * from './fleet-view';
export * from './escalation-webhook';
export * from './suppression-book';
