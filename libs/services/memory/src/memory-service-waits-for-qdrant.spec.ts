/** startMemoryService refuses to start (and consumes nothing) when the configured Qdrant does not answer. */
import { InProcessBus } from '@wayfinder/bus';
import { InMemoryWorkingMemory } from '@wayfinder/memory';
import { QdrantVectorStore } from '@wayfinder/qdrant';
import { startMemoryService } from './start-memory-service';

describe('startMemoryService readiness', () => {
  it('fails with the collection named when Qdrant is unreachable', async () => {
    const bus = new InProcessBus();
    const start = jest.spyOn(bus, 'start');
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    const vectorStore = new QdrantVectorStore({ url: 'http://127.0.0.1:9', dimension: 256, collection: 'unreachable_test' });
    await expect(startMemoryService({ bus, stores: { workingMemory: new InMemoryWorkingMemory(), vectorStore }, logger: false })).rejects.toThrow(
      /Qdrant does not answer \(collection unreachable_test\)/,
    );
    expect(start).not.toHaveBeenCalled();
  });
});
