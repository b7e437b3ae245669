export * from './keys';
export * from './redis-map-store';
