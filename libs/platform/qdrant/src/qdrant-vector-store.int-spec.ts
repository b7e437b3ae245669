/**
 * QdrantVectorStore on a real Qdrant, when QDRANT_URL names one. Qdrant does not run on the development
 * machine, so without QDRANT_URL the suite is replaced by one test that says so (and fails if the URL is
 * set but the contract was not run): nothing is skipped silently.
 */
import { QdrantClient } from '@qdrant/js-client-rest';
import { vectorStoreContract } from '@wayfinder/memory/testing';
import { QdrantVectorStore } from './qdrant-vector-store';

const url = process.env.QDRANT_URL;

if (url) {
  describe('QdrantVectorStore on a real Qdrant', () => {
    const collection = `wayfinder_test_${process.pid}_${Date.now().toString(36)}`;
    vectorStoreContract(async ({ dimension }) => {
      const store = new QdrantVectorStore({ url, dimension, collection });
      await store.ensureCollection().catch((error: Error) => {
        throw new Error(`Qdrant is not reachable at ${url}: ${error.message}`);
      });
      await expect(store.ping()).resolves.toBeUndefined();
      return { store };
    });
    afterAll(async () => {
      await new QdrantClient({ url, checkCompatibility: false }).deleteCollection(collection);
    });
  });
} else {
  describe('QdrantVectorStore on a real Qdrant', () => {
    it('is not run: QDRANT_URL is not set', () => {
      console.warn('Qdrant contract suite skipped: QDRANT_URL is not set');
      expect(process.env.QDRANT_URL).toBeUndefined();
    });
  });
}
