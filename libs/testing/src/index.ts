export {};
export * from './infra/kafka';
export * from './fleet';
export * from './infra/wait';
export * from './infra/service-process';
export * from './infra/own-redis';
export * from './infra/own-kafka';
