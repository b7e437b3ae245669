export {};
export * from './infra/kafka';
export * from './fleet';
export * from './infra/wait';
export * from '@wayfinder/otlp/testing';
