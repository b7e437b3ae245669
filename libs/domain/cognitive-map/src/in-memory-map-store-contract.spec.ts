import { InMemoryMapStore } from './map-store.port';
import { mapStoreContract } from './map-store.contract';

mapStoreContract('InMemoryMapStore', () => new InMemoryMapStore(), 'mem');
