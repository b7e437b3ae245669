/**
 * QdrantVectorStore.ping, which the runtime's dependency gate runs as a readiness check after a failed
 * batch: down at once when nothing listens, down after the check's timeout when the server accepts and
 * never answers (it must not hang the gate), up when the collection lookup answers.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { runChecks } from '@wayfinder/health';
import { QdrantVectorStore, type QdrantApi } from './qdrant-vector-store';

const statusOf = async (store: QdrantVectorStore, timeoutMs = 1_000) => (await runChecks({ qdrant: () => store.ping() }, timeoutMs)).checks.qdrant.status;

describe('QdrantVectorStore.ping as a readiness check', () => {
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

  it('is down when nothing listens', async () => {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    expect(await statusOf(new QdrantVectorStore({ url: 'http://127.0.0.1:9', dimension: 4 }))).toBe('down');
  });

  it('is down after the timeout when the server never answers', async () => {
    const store = new QdrantVectorStore({ url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, dimension: 4 });
    const started = Date.now();
    expect(await statusOf(store, 300)).toBe('down');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(sockets.length).toBeGreaterThan(0);
  });

  it('is up when the collection lookup answers, whether or not the collection exists yet', async () => {
    const looked: string[] = [];
    const client = { collectionExists: async (collection: string) => (looked.push(collection), { exists: false }) } as unknown as QdrantApi;
    expect(await statusOf(new QdrantVectorStore({ client, dimension: 4, collection: 'memories_here' }))).toBe('up');
    expect(looked).toEqual(['memories_here']);
  });
});
