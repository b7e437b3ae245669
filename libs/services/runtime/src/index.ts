export * from './runtime';
export * from './serve';
