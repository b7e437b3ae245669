export * from './detector-worker.module';
export * from './localized.handler';
export * from './detector-worker';
export * from './detector-state.store';
