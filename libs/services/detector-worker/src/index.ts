export * from './detector-worker.module';
export * from './localized.handler';
