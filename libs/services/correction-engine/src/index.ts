export * from './correction-engine.module';
export * from './correction.handler';
