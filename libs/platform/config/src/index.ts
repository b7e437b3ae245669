export * from './config';
export * from './kafka-security';
