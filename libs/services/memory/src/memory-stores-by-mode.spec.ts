/** memoryStores picks the adapters of a deployment mode: in-memory, Redis + Qdrant, Redis + in-memory index. */
import Redis from 'ioredis';
import { InMemoryVectorStore, InMemoryWorkingMemory } from '@wayfinder/memory';
import { QdrantVectorStore } from '@wayfinder/qdrant';
import { RedisWorkingMemory } from '@wayfinder/redis';
import { memoryStores } from './memory-stores';

describe('memoryStores', () => {
  // Never connected: building the adapters must not touch the network.
  const redis = new Redis({ lazyConnect: true });
  afterAll(() => redis.disconnect());

  it('uses the in-memory adapters in embedded mode', () => {
    const stores = memoryStores({ mode: 'embedded', dimension: 8 });
    expect(stores.workingMemory).toBeInstanceOf(InMemoryWorkingMemory);
    expect(stores.vectorStore).toBeInstanceOf(InMemoryVectorStore);
  });

  it('uses Redis and Qdrant in distributed mode with a Qdrant URL', () => {
    const stores = memoryStores({ mode: 'distributed', redis, qdrantUrl: 'http://127.0.0.1:6333', dimension: 8, qdrantCollection: 'mem_test' });
    expect(stores.workingMemory).toBeInstanceOf(RedisWorkingMemory);
    expect(stores.vectorStore).toBeInstanceOf(QdrantVectorStore);
    expect((stores.vectorStore as QdrantVectorStore).collection).toBe('mem_test');
  });

  it('falls back to the in-memory index without a Qdrant URL, and says so', () => {
    const warnings: string[] = [];
    const stores = memoryStores({ mode: 'distributed', redis, dimension: 8, warn: (m) => warnings.push(m) });
    expect(stores.workingMemory).toBeInstanceOf(RedisWorkingMemory);
    expect(stores.vectorStore).toBeInstanceOf(InMemoryVectorStore);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/no Qdrant URL.*in-memory index/);
  });

  it('refuses distributed mode without Redis', () => {
    expect(() => memoryStores({ mode: 'distributed', dimension: 8 })).toThrow(/Redis/);
  });
});
