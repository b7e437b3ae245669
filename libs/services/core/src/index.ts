export * from './tokens';
export * from './map-store';
export * from './map-cache';
export * from './policy-book';
export * from './core.module';
export * from './policies.handler';
export * from './dead-letter';
