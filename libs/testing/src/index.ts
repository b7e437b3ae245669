export {};
export * from './infra/kafka';
