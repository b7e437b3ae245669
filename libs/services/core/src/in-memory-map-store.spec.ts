import { InMemoryMapStore } from './map-store';
import { mapStoreContract } from './map-store.contract';

mapStoreContract('InMemoryMapStore', () => new InMemoryMapStore(), 'mem');
