/**
 * QdrantVectorStore.answers, which the runtime's dependency gate asks after a failed batch: false at once
 * when nothing listens, false after its timeout when the server accepts and never answers (it must not
 * hang the gate), true when the collection lookup answers.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { QdrantVectorStore, type QdrantApi } from './qdrant-vector-store';

describe('QdrantVectorStore.answers', () => {
  let silent: Server;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // Accepts connections and never writes a byte back.
    silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('is false when nothing listens', async () => {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    expect(await new QdrantVectorStore({ url: 'http://127.0.0.1:9', dimension: 4 }).answers()).toBe(false);
  });

  it('is false after its timeout when the server never answers', async () => {
    const store = new QdrantVectorStore({ url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, dimension: 4 });
    const started = Date.now();
    expect(await store.answers(300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(sockets.length).toBeGreaterThan(0);
  });

  it('is true when the collection lookup answers, whether or not the collection exists yet', async () => {
    const looked: string[] = [];
    const client = { collectionExists: async (collection: string) => (looked.push(collection), { exists: false }) } as unknown as QdrantApi;
    expect(await new QdrantVectorStore({ client, dimension: 4, collection: 'memories_here' }).answers()).toBe(true);
    expect(looked).toEqual(['memories_here']);
  });
});
