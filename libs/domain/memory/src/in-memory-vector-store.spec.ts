// The in-memory VectorStore passes the port contract.
import { InMemoryVectorStore } from './in-memory-vector-store';
import { vectorStoreContract } from './testing';

vectorStoreContract(({ dimension }) => ({ store: new InMemoryVectorStore({ dimension }) }));
