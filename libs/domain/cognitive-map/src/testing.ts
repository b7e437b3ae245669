/**
 * Contract suites of the cognitive-map ports, for the adapters' specs (jest globals: never exported by
 * index.ts). Import as `@wayfinder/cognitive-map/testing`.
 */
export { mapStoreContract } from './map-store.contract';
