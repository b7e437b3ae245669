export {};
export * from './infra/kafka';
export * from './fleet';
