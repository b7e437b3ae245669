// The in-memory KeyStore, the port's reference behaviour, passes the contract suite.
import { InMemoryKeyStore } from './key-store';
import { keyStoreContract } from './key-store.contract';

keyStoreContract(() => new InMemoryKeyStore());
