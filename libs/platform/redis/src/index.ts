export * from './keys';
export * from './redis-map-store';
export * from './redis-detector-state.store';
export * from './redis-working-memory';
export * from './redis-history-store';
export * from './redis-delivery-log';
